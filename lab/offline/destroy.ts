// `destroy`: deletes every resource of the state, last registered first (a resource never before
// what it depends on): host commands run their `delete` scripts, dynamic resources their
// provider's delete, manifests are removed. The state is written after each deletion, so a failure
// leaves exactly what still exists. The program does not run. The preview (dryRun) asks the
// destroy guard, which is deleted first and refuses while anything would stop the destroy
// halfway, what removing every group and host would meet (its diff against inputs that list
// none: the same check as its delete, touching nothing), and stops where the destroy would,
// listing the same blockers.
import { DESTROY_GUARD_TYPE } from "@ovn-kubernetes-as-code/cluster/guard";
import type { Registration } from "./monitor";
import type { Operation } from "./operation";
import { operationResult, type OperationResult, type ResourceOp } from "./results";
import type { StateResource } from "./state";
import { maskSecrets, type Props } from "./values";

/** The guard as a program would register it with nothing left: what its diff is given. */
const destroyRegistration = (r: StateResource): Registration => ({
    urn: r.urn,
    type: r.type,
    name: r.name,
    parent: r.parent,
    custom: r.custom,
    aliases: [],
    inputs: { ...r.inputs, groups: [], hosts: [] },
    dependencies: r.dependencies,
    provider: r.provider ?? "",
    deleteBeforeReplace: false,
    deleteBeforeReplaceSet: false,
    replaceOnChanges: [],
    ignoreChanges: [],
    additionalSecretOutputs: [],
});

export async function destroyStack(op: Operation, dryRun: boolean, onOp: (o: ResourceOp) => void = () => {}): Promise<OperationResult> {
    const started = Date.now();
    const { handlers, state } = op;
    const remaining = [...state.resources];
    const ops: ResourceOp[] = [];
    let failure: string | undefined;
    try {
        for (const r of [...state.resources].reverse()) {
            const t0 = Date.now();
            try {
                if (!dryRun) await handlers.for(r.type, r.custom).delete(r);
                else if (r.type === DESTROY_GUARD_TYPE) {
                    const reg = destroyRegistration(r);
                    await handlers.for(r.type, r.custom).diff(r, reg.inputs, reg);
                }
            } catch (e) {
                failure = op.redactor.text(`${r.type} ${r.name}: ${(e as Error).message}`);
            }
            const o: ResourceOp = { op: "delete", urn: r.urn, type: r.type, name: r.name, keys: [], ms: Date.now() - t0 };
            if (failure !== undefined) o.error = failure;
            ops.push(o);
            onOp(o);
            if (failure !== undefined) break;
            remaining.splice(remaining.indexOf(r), 1);
            if (!dryRun) op.save({ ...state, outputs: remaining.length > 0 ? state.outputs : {}, resources: remaining });
        }
    } finally {
        await handlers.close();
    }
    const base = { operation: "destroy" as const, stack: op.stack, dryRun, statePath: op.statePath, started };
    return operationResult(base, ops, failure, { outputs: maskSecrets(remaining.length > 0 ? state.outputs : {}) as Props });
}
