// pulumi-nodejs:dynamic resources, carried out by the dynamic provider host as the engine does:
// Check with the old and new inputs, then Create, or Diff against the stored outputs and Update
// (a DIFF_UNKNOWN answer diffed by the engine's rules, ../engineDiff);
// Delete and Read with the stored outputs, which keep `__provider` (the code the resource was
// created with). The host was configured without secret support, so secrets are unwrapped on the
// way in and the engine re-marks them on the way out.
import { resolveDiff } from "../engineDiff";
import { unwrapSecrets } from "../sdk";
import { annotateSecrets, changedKeys, type Props } from "../values";
import type { DynamicProviderHost } from "./dynamicHost";
import type { ResourceHandler } from "./types";

const plain = (p: Props) => unwrapSecrets(p) as Props;
/** The entries of `from` under the keys of `like`. */
const pick = (from: Props, like: Props) => Object.fromEntries(Object.keys(like).map((k) => [k, from[k]]));

export function dynamicHandler(host: () => Promise<DynamicProviderHost>): ResourceHandler {
    return {
        async check(reg, old) {
            const res = await (await host()).check(reg.urn, old ? plain(old.inputs) : {}, plain(reg.inputs));
            if (res.failures.length > 0) {
                const reasons = res.failures.map((f) => `${f.property}: ${f.reason}`).join("; ");
                throw new Error(`check failed: ${reasons}`);
            }
            return annotateSecrets(res.inputs, reg.inputs);
        },
        async diff(old, inputs, reg) {
            const reply = await (await host()).diff(old.urn, old.id ?? "", plain(old.outputs), plain(inputs), plain(old.inputs));
            const d = resolveDiff(reply, old.inputs, inputs, reg.ignoreChanges);
            if (!d.changes) return { ...d, keys: [] };
            // Which inputs changed is shown by name; unchanged inputs can still differ from live
            // outputs (after a refresh found drift), and then those are named.
            const byInputs = d.changedKeys.length > 0 ? d.changedKeys : changedKeys(old.inputs, inputs);
            const keys = byInputs.length > 0 ? byInputs : changedKeys(pick(old.outputs, inputs), inputs, ["__provider"]);
            return { ...d, keys };
        },
        async create(reg, inputs) {
            return (await host()).create(reg.urn, plain(inputs));
        },
        async update(old, inputs) {
            return (await host()).update(old.urn, old.id ?? "", plain(old.outputs), plain(inputs), plain(old.inputs));
        },
        async delete(old) {
            await (await host()).delete(old.urn, old.id ?? "", plain(old.outputs));
        },
        async read(old) {
            const live = await (await host()).read(old.urn, old.id ?? "", plain(old.outputs), plain(old.inputs));
            if (live.id === "") return undefined;
            return {
                id: live.id,
                outputs: annotateSecrets(live.outputs, old.outputs),
                ...(live.inputs ? { inputs: annotateSecrets(live.inputs, old.inputs) } : {}),
            };
        },
    };
}
