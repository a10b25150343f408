// npm run render -- stacks/Pulumi.<stack>.yaml [--out DIR]
// Writes, with no network and no credentials, what the stack declares. Pulumi mode: the desired
// Northbound rows (northbound.json) and a text view of them shaped like `ovn-nbctl show`
// (northbound.txt). ovnkube mode: the Kubernetes manifests (kubernetes.yaml) and the plan
// ovnkube is fed (plan.json: per node the annotations and the addresses ovnkube will give it).
// Default DIR: rendered/<stack>.
import { mkdirSync, writeFileSync } from "fs";
import * as path from "path";
import { stringify } from "yaml";
import { PROJECT, readStackFile } from "../components/config/stackFile";
import { ConfigError, validateConfig } from "../components/config/validate";
import { kubeManifests, manifestList } from "../components/kube/manifests";
import { buildClusterModel } from "../components/model/cluster";
import { nbctlShow } from "../components/render/nbctlShow";
import { desiredNorthbound } from "../components/render/northbound";

function main(argv: string[]): number {
    const file = argv.find((a) => !a.startsWith("--") && argv[argv.indexOf(a) - 1] !== "--out");
    const outFlag = argv.indexOf("--out");
    if (!file || (outFlag >= 0 && !argv[outFlag + 1])) {
        console.error("usage: npm run render -- <path to Pulumi.<stack>.yaml> [--out DIR]");
        return 2;
    }
    const stack = path.basename(file).replace(/^Pulumi\./, "").replace(/\.ya?ml$/, "");
    const out = outFlag >= 0 ? argv[outFlag + 1] : path.join("rendered", stack);
    let model;
    try {
        model = buildClusterModel(validateConfig(readStackFile(file)));
    } catch (e) {
        if (!(e instanceof ConfigError)) throw e;
        for (const p of e.problems) console.error(`${file}: ${p.path}: ${p.message}`);
        return 1;
    }
    mkdirSync(out, { recursive: true });
    if (model.writer === "ovnkube") {
        const objects = manifestList(kubeManifests(model.kube));
        writeFileSync(path.join(out, "kubernetes.yaml"), objects.map((o) => stringify(o)).join("---\n"));
        writeFileSync(path.join(out, "plan.json"), JSON.stringify({ writer: model.writer, nodes: model.kube.nodes, nodeGroups: model.kube.nodeGroups }, null, 2) + "\n");
        console.log(`${out}: ovnkube mode: ${objects.length} Kubernetes objects, the plan of ${model.kube.nodes.length} nodes`);
        return 0;
    }
    const groups = desiredNorthbound(model, `${PROJECT}/${stack}`);
    writeFileSync(path.join(out, "northbound.json"), JSON.stringify(groups, null, 2) + "\n");
    writeFileSync(path.join(out, "northbound.txt"), nbctlShow(groups));
    const rows = groups.reduce((n, g) => n + g.rows.length, 0);
    console.log(`${out}: Pulumi mode: ${rows} Northbound rows in ${groups.length} groups`);
    return 0;
}

process.exitCode = main(process.argv.slice(2));
