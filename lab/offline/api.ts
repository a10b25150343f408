// The offline apply's programmatic entry points, for tests and demo scripts. A stand-in for the
// Pulumi engine on one machine (real clusters use `pulumi up`): each call resolves with a result,
// `ok: false` and a redacted `error` when something failed, and never prints.
import { deploy } from "./deploy";
import { destroyStack } from "./destroy";
import { openOperation, type OfflineOptions } from "./operation";
import { refreshState } from "./refresh";
import { operationResult, type OperationName, type OperationResult } from "./results";

export type { OfflineOptions } from "./operation";
export type { Counts, Drift, OperationResult, ResourceOp } from "./results";

async function guarded(operation: OperationName, opts: OfflineOptions, body: () => Promise<OperationResult>): Promise<OperationResult> {
    const started = Date.now();
    try {
        return await body();
    } catch (e) {
        // Set-up failures (no stack file, wrong passphrase, unreadable state) carry no secrets.
        return operationResult(
            { operation, stack: opts.stack, dryRun: opts.dryRun ?? false, statePath: "", started },
            [],
            (e as Error).message,
        );
    }
}

/** `pulumi up` (or, with dryRun, `pulumi preview`): runs the program and carries out its changes. */
export function apply(opts: OfflineOptions): Promise<OperationResult> {
    return guarded(opts.dryRun ? "preview" : "up", opts, async () => {
        const op = openOperation(opts);
        if (!opts.refresh) return deploy(op, opts.dryRun ?? false, opts.onOp, opts.continueOnError);
        const refreshed = await refreshState(op, opts.dryRun ?? false);
        if (!refreshed.ok) return { ...refreshed, operation: opts.dryRun ? "preview" : "up" };
        return { ...(await deploy(op, opts.dryRun ?? false, opts.onOp, opts.continueOnError)), drift: refreshed.drift };
    });
}

/** `pulumi preview`: the same as apply with dryRun. */
export function preview(opts: OfflineOptions): Promise<OperationResult> {
    return apply({ ...opts, dryRun: true });
}

/** `pulumi refresh`: reads live state and reports drift; with dryRun the state is left as it was. */
export function refresh(opts: OfflineOptions): Promise<OperationResult> {
    return guarded("refresh", opts, () => refreshState(openOperation(opts), opts.dryRun ?? false, opts.onOp));
}

/** `pulumi destroy`: deletes everything in the state, last registered first. */
export function destroy(opts: OfflineOptions): Promise<OperationResult> {
    return guarded("destroy", opts, () => destroyStack(openOperation(opts), opts.dryRun ?? false, opts.onOp));
}
