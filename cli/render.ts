// npm run render -- stacks/Pulumi.<stack>.yaml [--out DIR] [--svg] [--json]
// Writes, with no network and no credentials, what the stack declares. Pulumi mode: the desired
// Northbound rows (northbound.json) and a text view of them shaped like `ovn-nbctl show`
// (northbound.txt). ovnkube mode: the Kubernetes manifests (kubernetes.yaml) and the plan
// ovnkube is fed (plan.json: per node the annotations and the addresses ovnkube will give it).
// ovnkube mode also lists the release's CRDs (crds.json: each URL an `up` applies, and the sha256 of
// what render read) and writes each one it read into crds/: local files always, from a reviewer's
// --crd-mirror DIR in place of the stack's URLs, http(s) URLs only with --fetch-crds.
// --svg: also the planned topology as a picture (topology.svg). --json: what was written, as one
// JSON document on stdout. Default DIR: rendered/<stack>. Exit codes: docs/cli.md.
import { mkdirSync, rmSync, writeFileSync } from "fs";
import * as path from "path";
import { stringify } from "yaml";
import { PROJECT, readStackFile } from "@ovn-kubernetes-as-code/cluster/config";
import { ConfigError, validateConfig } from "@ovn-kubernetes-as-code/cluster/config";
import { kubeManifests, manifestList } from "@ovn-kubernetes-as-code/cluster/kube";
import { buildClusterModel } from "@ovn-kubernetes-as-code/cluster/model";
import { nbctlShow } from "@ovn-kubernetes-as-code/cluster/render";
import { desiredNorthbound } from "@ovn-kubernetes-as-code/cluster/render";
import { localMirrorUrl, reviewCrds } from "./crdReview";
import { plannedTopologySvg } from "./pictures";
import { EXIT, stackArgs, stackNameOf } from "./terminal/args";
import { paint } from "./terminal/style";

const USAGE = "usage: npm run render -- <path to Pulumi.<stack>.yaml> [--out DIR] [--svg] [--json] [--crd-mirror DIR] [--fetch-crds]";

async function main(argv: string[]): Promise<number> {
    const args = stackArgs(
        argv,
        {
            out: { type: "string" },
            svg: { type: "boolean", default: false },
            json: { type: "boolean", default: false },
            "crd-mirror": { type: "string" },
            "fetch-crds": { type: "boolean", default: false },
        },
        USAGE,
    );
    if (!args) return EXIT.usage;
    const mirror = args.values["crd-mirror"] === undefined ? undefined : localMirrorUrl(args.values["crd-mirror"]);
    if (mirror instanceof Error) {
        console.error(`${mirror.message}\n${USAGE}`);
        return EXIT.usage;
    }
    const file = args.file;
    const stack = stackNameOf(file);
    const out = args.values.out ?? path.join("rendered", stack);
    let model;
    try {
        model = buildClusterModel(validateConfig(readStackFile(file)));
    } catch (e) {
        if (!(e instanceof ConfigError)) throw e;
        if (args.values.json) console.log(JSON.stringify({ file, valid: false, problems: e.problems }, null, 2));
        else for (const p of e.problems) console.error(`${file}: ${paint(process.stderr, "red", p.path)}: ${p.message}`);
        return EXIT.failed;
    }
    mkdirSync(out, { recursive: true });
    const files: string[] = [];
    const write = (name: string, content: string | Buffer) => {
        writeFileSync(path.join(out, name), content);
        files.push(path.join(out, name));
    };
    let summary: string;
    let counts: Record<string, unknown>;
    if (model.writer === "ovnkube") {
        const objects = manifestList(kubeManifests(model.kube));
        write("kubernetes.yaml", objects.map((o) => stringify(o)).join("---\n"));
        write(
            "plan.json",
            JSON.stringify({ writer: model.writer, nodes: model.kube.nodes, nodeGroups: model.kube.nodeGroups }, null, 2) + "\n",
        );
        // crds/ holds what this render read, nothing left from an earlier one.
        rmSync(path.join(out, "crds"), { recursive: true, force: true });
        const crds = (await reviewCrds(model.kube.crdUrls, { mirror, fetch: args.values["fetch-crds"] })).map((r) => {
            if (!("content" in r)) return r;
            const { content, ...entry } = r;
            mkdirSync(path.join(out, "crds"), { recursive: true });
            write(path.join("crds", r.file), content);
            return { ...entry, file: path.join("crds", r.file) };
        });
        write("crds.json", JSON.stringify(crds, null, 2) + "\n");
        const read = crds.filter((c) => "sha256" in c).length;
        summary =
            `ovnkube mode: ${objects.length} Kubernetes objects, the plan of ${model.kube.nodes.length} nodes\n` +
            `${path.join(out, "crds.json")}: the ${crds.length} CRD files an up applies, by URL; ${read} read into ${path.join(out, "crds")} with their sha256` +
            (read < crds.length ? `; ${crds.length - read} not read (crds.json says why)` : "");
        counts = { kubernetesObjects: objects.length, nodes: model.kube.nodes.length, crds };
    } else {
        const groups = desiredNorthbound(model, `${PROJECT}/${stack}`);
        write("northbound.json", JSON.stringify(groups, null, 2) + "\n");
        write("northbound.txt", nbctlShow(groups));
        const rows = groups.reduce((n, g) => n + g.rows.length, 0);
        summary = `Pulumi mode: ${rows} Northbound rows in ${groups.length} groups`;
        counts = { northboundRows: rows, groups: groups.length };
    }
    if (args.values.svg) write("topology.svg", await plannedTopologySvg(model, stack));
    if (args.values.json)
        console.log(
            JSON.stringify(
                { file, valid: true, stack, out, writer: model.writer, architecture: model.architecture, ...counts, files },
                null,
                2,
            ),
        );
    else console.log(`${out}: ${summary}${args.values.svg ? `; the planned topology in ${path.join(out, "topology.svg")}` : ""}`);
    return EXIT.ok;
}

main(process.argv.slice(2)).then(
    (code) => (process.exitCode = code),
    (e: unknown) => {
        console.error(`render: ${(e as Error).message}`);
        process.exitCode = EXIT.failed;
    },
);
