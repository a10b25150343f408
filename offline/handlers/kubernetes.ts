// kubernetes:* objects, offline: each object is validated against the Kubernetes schema (check,
// so a preview already fails on it) and "applied" by writing it as YAML under the stack's
// manifests directory; no cluster is contacted. A change of apiVersion, kind, name or namespace
// is another object, hence a replacement; any other change rewrites the manifest.
import { randomBytes } from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";
import YAML from "yaml";
import { kubeProblems } from "../kubeSchema";
import { unwrapSecrets } from "../sdk";
import type { StateResource } from "../state";
import { annotateSecrets, changedKeys, type Props } from "../values";
import type { HandlerContext, ResourceHandler } from "./types";

interface Meta {
    name?: string;
    namespace?: string;
}

const metaOf = (p: Props) => (((unwrapSecrets(p) as Props).metadata ?? {}) as Meta);
const plain = (p: Props) => unwrapSecrets(p) as Props;

/** One file per object: <namespace or _cluster>_<kind>[.<group>]_<name>.yaml. */
export function manifestFile(dir: string, p: Props): string {
    const o = plain(p);
    const apiVersion = String(o.apiVersion ?? "");
    const group = apiVersion.includes("/") ? apiVersion.split("/")[0] : "";
    const meta = metaOf(o);
    const kind = String(o.kind ?? "object").toLowerCase() + (group ? `.${group}` : "");
    return path.join(dir, `${meta.namespace ?? "_cluster"}_${kind}_${meta.name ?? "unnamed"}.yaml`);
}

function write(dir: string, p: Props): string {
    const file = manifestFile(dir, p);
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    // Mode 0600: a Secret's data is in the clear here, as it would be in the cluster.
    fs.writeFileSync(file, YAML.stringify(plain(p), { lineWidth: 0 }), { mode: 0o600 });
    return file;
}

const objectId = (p: Props) => {
    const m = metaOf(p);
    return m.namespace ? `${m.namespace}/${m.name}` : String(m.name);
};

export function kubernetesHandler(ctx: HandlerContext): ResourceHandler {
    return {
        async check(reg, old) {
            const inputs: Props = { ...reg.inputs };
            const meta = inputs.metadata;
            // Like the provider's auto-naming: <name>-<random>, kept for the object's lifetime.
            if (meta && typeof meta === "object" && !("value" in meta) && !(meta as Meta).name) {
                const kept = old ? metaOf(old.outputs).name : undefined;
                inputs.metadata = { ...meta, name: kept ?? `${reg.name}-${randomBytes(4).toString("hex")}` };
            }
            const problems = kubeProblems(plain(inputs));
            if (problems.length > 0) {
                throw new Error(`invalid Kubernetes object:\n  ${problems.join("\n  ")}`);
            }
            return inputs;
        },
        async diff(old, inputs) {
            const keys = changedKeys(old.inputs, inputs);
            const moved = manifestFile(ctx.manifestsDir, old.outputs) !== manifestFile(ctx.manifestsDir, inputs);
            return { changes: keys.length > 0, keys, replaceKeys: moved ? keys.filter((k) => ["apiVersion", "kind", "metadata"].includes(k)) : [], deleteBeforeReplace: false };
        },
        async create(_reg, inputs) {
            write(ctx.manifestsDir, inputs);
            return { id: objectId(inputs), outputs: inputs };
        },
        async update(_old, inputs) {
            write(ctx.manifestsDir, inputs);
            return inputs;
        },
        async delete(old: StateResource) {
            fs.rmSync(manifestFile(ctx.manifestsDir, old.outputs), { force: true });
        },
        async read(old) {
            // The recorded manifest is the "live" object: edited or removed by hand, it is drift.
            const file = manifestFile(ctx.manifestsDir, old.outputs);
            if (!fs.existsSync(file)) return undefined;
            const live = YAML.parse(fs.readFileSync(file, "utf8")) as Props;
            return { id: old.id, outputs: annotateSecrets(live, old.outputs) };
        },
    };
}
