// What an offline operation reports: one entry per resource step, totals as the Pulumi CLI gives
// them, drift found by refresh, and the stack's outputs with secrets masked.
import type { Props } from "./values";
import type { ProfileReport } from "./profile";
import type { PropertyDiffKind } from "./engineDiff";

/** `delete-replaced` is the old half of a create-before-delete replacement (counted as the replace). */
export type OpKind = "create" | "update" | "replace" | "delete" | "delete-replaced" | "same";

export interface ResourceOp {
    op: OpKind;
    urn: string;
    type: string;
    name: string;
    /** Names of the inputs (or, for refresh, outputs) that differ; never their values. */
    keys: string[];
    /** The engine's DetailedDiff when it has one: property path → add/delete/update[-replace]; never values. */
    detailedDiff?: Record<string, PropertyDiffKind>;
    ms: number;
    /** Set when the step failed (secrets redacted). */
    error?: string;
}

export interface Counts {
    created: number;
    updated: number;
    replaced: number;
    deleted: number;
    unchanged: number;
}

export interface Drift {
    urn: string;
    type: string;
    name: string;
    change: "changed" | "deleted";
    keys: string[];
}

export type OperationName = "up" | "preview" | "refresh" | "destroy";

export interface OperationResult {
    operation: OperationName;
    stack: string;
    ok: boolean;
    /** Why it failed, secrets redacted. */
    error?: string;
    /** Nothing was carried out (preview, or refresh/destroy without applying). */
    dryRun: boolean;
    ops: ResourceOp[];
    counts: Counts;
    drift: Drift[];
    /** The stack's outputs, secrets as "[secret]". */
    outputs: Props;
    statePath: string;
    ms: number;
    /** Where the time went (up and preview). */
    profile?: ProfileReport;
}

export function countOps(ops: ResourceOp[]): Counts {
    const n = (op: OpKind) => ops.filter((o) => o.op === op && !o.error).length;
    return { created: n("create"), updated: n("update"), replaced: n("replace"), deleted: n("delete"), unchanged: n("same") };
}

/** The result of an operation from what it did; `failure` set means it failed. */
export function operationResult(
    base: { operation: OperationName; stack: string; dryRun: boolean; statePath: string; started: number },
    ops: ResourceOp[],
    failure: string | undefined,
    extra: { drift?: Drift[]; outputs?: Props } = {},
): OperationResult {
    return {
        operation: base.operation,
        stack: base.stack,
        ok: failure === undefined,
        ...(failure !== undefined ? { error: failure } : {}),
        dryRun: base.dryRun,
        ops,
        counts: countOps(ops),
        drift: extra.drift ?? [],
        outputs: extra.outputs ?? {},
        statePath: base.statePath,
        ms: Date.now() - base.started,
    };
}
