// `refresh`: reads every resource's live state through its handler and reports drift, the
// differences between the stored outputs and what is live (by output name, never values). Applied
// (not dryRun), the state takes the live values and forgets what no longer exists, as
// `pulumi refresh` does. The program does not run.
import type { Operation } from "./operation";
import { operationResult, type Drift, type OperationResult, type ResourceOp } from "./results";
import type { StateResource } from "./state";
import { changedKeys, maskSecrets, type Props } from "./values";

export async function refreshState(op: Operation, dryRun: boolean, onOp: (o: ResourceOp) => void = () => {}): Promise<OperationResult> {
    const started = Date.now();
    const { handlers, state } = op;
    const ops: ResourceOp[] = [];
    const drift: Drift[] = [];
    const kept: StateResource[] = [];
    let failure: string | undefined;
    try {
        for (const r of state.resources) {
            const t0 = Date.now();
            const done = (o: Omit<ResourceOp, "urn" | "type" | "name" | "ms">) => {
                const full = { ...o, urn: r.urn, type: r.type, name: r.name, ms: Date.now() - t0 };
                ops.push(full);
                onOp(full);
            };
            if (failure !== undefined || r.pendingDelete) {
                kept.push(r);
                continue;
            }
            try {
                const live = await handlers.for(r.type, r.custom).read(r);
                if (!live) {
                    drift.push({ urn: r.urn, type: r.type, name: r.name, change: "deleted", keys: [] });
                    done({ op: "delete", keys: [] });
                    continue;
                }
                // __provider is the provider's code, not state of the resource.
                const keys = changedKeys(r.outputs, live.outputs, ["__provider"]);
                if (keys.length > 0) drift.push({ urn: r.urn, type: r.type, name: r.name, change: "changed", keys });
                // Inputs a provider returned replace the recorded ones, as the engine's refresh step
                // records them (pulumi/pulumi v3.259.0 pkg/resource/deploy/step.go:1624), so the next diff is against them.
                const inputs = live.inputs ?? r.inputs;
                kept.push(keys.length > 0 || inputs !== r.inputs ? { ...r, id: live.id ?? r.id, outputs: live.outputs, inputs } : r);
                done({ op: keys.length > 0 ? "update" : "same", keys });
            } catch (e) {
                failure = op.redactor.text(`${r.type} ${r.name}: ${(e as Error).message}`);
                kept.push(r);
                done({ op: "same", keys: [], error: failure });
            }
        }
        if (failure === undefined) {
            // Kept in memory for an `up` that follows (up --refresh), written unless previewing.
            op.state = { ...state, resources: kept };
            if (!dryRun) op.save(op.state);
        }
    } finally {
        await handlers.close();
    }
    const base = { operation: "refresh" as const, stack: op.stack, dryRun, statePath: op.statePath, started };
    return operationResult(base, ops, failure, { drift, outputs: maskSecrets(state.outputs) as Props });
}
