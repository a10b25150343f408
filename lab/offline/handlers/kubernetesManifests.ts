// kubernetes:* objects without a cluster: "applied" by writing each as YAML under the stack's
// manifests directory. A change of apiVersion, kind, name or namespace is another file, hence a
// replacement; any other change rewrites the manifest; the recorded manifest is the "live"
// object, so a file edited or removed by hand is drift.
import * as fs from "node:fs";
import * as path from "node:path";
import YAML from "yaml";
import { unwrapSecrets } from "../sdk";
import type { StateResource } from "../state";
import { annotateSecrets, changedKeys, type Props } from "../values";
import type { DiffResult, HandlerContext } from "./types";

interface Meta {
    name?: string;
    namespace?: string;
}

export const plain = (p: Props) => unwrapSecrets(p) as Props;
export const metaOf = (p: Props) => (plain(p).metadata ?? {}) as Meta;

/** One file per object: <namespace or _cluster>_<kind>[.<group>]_<name>.yaml. */
export function manifestFile(dir: string, p: Props): string {
    const o = plain(p);
    const apiVersion = String(o.apiVersion ?? "");
    const group = apiVersion.includes("/") ? apiVersion.split("/")[0] : "";
    const meta = metaOf(o);
    const kind = String(o.kind ?? "object").toLowerCase() + (group ? `.${group}` : "");
    return path.join(dir, `${meta.namespace ?? "_cluster"}_${kind}_${meta.name ?? "unnamed"}.yaml`);
}

/** `<namespace>/<name>` or `<name>`: the resource ID, as pulumi-kubernetes forms it. */
export const objectId = (p: Props) => {
    const m = metaOf(p);
    return m.namespace ? `${m.namespace}/${m.name}` : String(m.name);
};

/** The object's identity fields: a change of them is another object. */
export const IDENTITY_KEYS = ["apiVersion", "kind", "metadata"];

export function manifestsStore(ctx: HandlerContext) {
    const dir = ctx.manifestsDir;
    return {
        diff(old: StateResource, inputs: Props): DiffResult {
            const keys = changedKeys(old.inputs, inputs);
            const moved = manifestFile(dir, old.outputs) !== manifestFile(dir, inputs);
            return {
                changes: keys.length > 0,
                keys,
                replaceKeys: moved ? keys.filter((k) => IDENTITY_KEYS.includes(k)) : [],
                deleteBeforeReplace: false,
            };
        },
        write(p: Props): Props {
            const file = manifestFile(dir, p);
            fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
            // Mode 0600: a Secret's data is in the clear here, as it would be in the cluster.
            fs.writeFileSync(file, YAML.stringify(plain(p), { lineWidth: 0 }), { mode: 0o600 });
            return p;
        },
        remove(old: StateResource): void {
            fs.rmSync(manifestFile(dir, old.outputs), { force: true });
        },
        read(old: StateResource): { id?: string; outputs: Props } | undefined {
            const file = manifestFile(dir, old.outputs);
            if (!fs.existsSync(file)) return undefined;
            const live = YAML.parse(fs.readFileSync(file, "utf8")) as Props;
            return { id: old.id, outputs: annotateSecrets(live, old.outputs) };
        },
    };
}
