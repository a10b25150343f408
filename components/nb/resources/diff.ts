// The exact diff of an NB resource, pure, and the answer the engine gets. Two sources of change:
// - inputs: every leaf that differs between the recorded inputs and the new ones; those under a
//   kind's `replaceOn` paths mean a different set of rows, so the resource is replaced, deleting
//   the old rows first (names are unique indexes, and the new rows would be found by the same tags);
// - drift: the rows the new inputs ask for against the rows last recorded, which after a refresh
//   are the live rows, so drift made by hand shows here and the next update repairs it; and a
//   record whose `declared` digest is not what this code declares for the same inputs (../core/record).
import { UNKNOWN, valueAt } from "../core/check";
import type { NbKind } from "../kinds/common";
import { normalizeCommon } from "../kinds/common";
import { declaredDigest, recordedStates } from "../core/record";
import { sameValue, specStates, type RowState } from "../core/rows";

export interface DiffDetail {
    /** Input paths whose change replaces the resource. */
    replaces: string[];
    /** Other changed input leaves. */
    updates: string[];
    /** Row state that differs while the inputs do not say so: `rows.<key>[.<column>]`, and `declared`. */
    drift: string[];
}

function containsUnknown(v: unknown): boolean {
    if (v === UNKNOWN) return true;
    if (typeof v === "object" && v !== null) return Object.values(v).some(containsUnknown);
    return false;
}

/** Leaf paths where a and b differ (an unknown new value counts as different). */
export function changedLeaves(a: unknown, b: unknown, path = ""): string[] {
    if (b === UNKNOWN) return [path];
    const objects = typeof a === "object" && a !== null && typeof b === "object" && b !== null && Array.isArray(a) === Array.isArray(b);
    if (!objects) return sameValue(a, b) ? [] : [path];
    if (Array.isArray(a) && a.length !== (b as unknown[]).length) return [path];
    const keys = [...new Set([...Object.keys(a as object), ...Object.keys(b as object)])].sort();
    return keys.flatMap((k) => changedLeaves((a as any)[k], (b as any)[k], path ? `${path}.${k}` : k));
}

/** `rows.<name>` for a row missing or extra, `rows.<name>.<column>` for a column that differs. */
function rowChanges(live: Record<string, RowState>, desired: Record<string, RowState>): string[] {
    const keys = [...new Set([...Object.keys(live), ...Object.keys(desired)])].sort();
    return keys.flatMap((key) => {
        const [a, b] = [live[key], desired[key]];
        if (a === undefined || b === undefined || a.table !== b.table) return [`rows.${key}`];
        const columns = [...new Set([...Object.keys(a.columns ?? {}), ...Object.keys(b.columns)])].sort();
        return columns.filter((c) => !sameValue(a.columns?.[c], b.columns[c])).map((c) => `rows.${key}.${c}`);
    });
}

export function diffNb(kind: NbKind, olds: Record<string, any>, news: Record<string, any>): DiffDetail {
    const pick = (x: Record<string, any>) => ({ ...normalizeCommon(x), ...kind.normalize(x) });
    const [before, after] = [pick(olds), pick(news)];
    const leaves = changedLeaves(before, after);
    const underReplace = (p: string) => kind.replaceOn.some((r) => p === r || p.startsWith(`${r}.`) || r.startsWith(`${p}.`));
    const replaces = kind.replaceOn.filter((r) => !sameValue(valueAt(before, r), valueAt(after, r)) || valueAt(after, r) === UNKNOWN);
    const updates = leaves.filter((p) => !underReplace(p));
    const drift: string[] = [];
    if (replaces.length === 0 && !containsUnknown(after)) {
        const recordedWith = kind.rows(before as never);
        drift.push(
            ...(typeof olds.rows === "object" && olds.rows !== null
                ? rowChanges(recordedStates(olds.rows, recordedWith), specStates(kind.rows(after as never)))
                : ["rows"]),
        );
        if (olds.declared !== undefined && olds.declared !== declaredDigest(recordedWith)) drift.push("declared");
    }
    return { replaces, updates, drift };
}

/** What a dynamic provider's diff() returns (pulumi.dynamic.DiffResult). */
export interface DiffAnswer {
    changes?: boolean;
    replaces: string[];
    deleteBeforeReplace: boolean;
}

/**
 * The answer to the engine. The SDK's dynamic-provider host forwards only changes, replaces and
 * deleteBeforeReplace (pulumi/pulumi v3.259.0 sdk/nodejs/cmd/dynamic-provider/index.ts:212-227),
 * so no detailed diff can be handed over; but `changes` left undefined is DIFF_UNKNOWN, on which
 * the engine diffs the old and new inputs itself, ignoreChanges applied, into ChangedKeys and a
 * DetailedDiff by property path (pkg/resource/deploy/step_generator.go:2984-2993) that
 * replaceOnChanges then reads (applyReplaceOnChanges, :3122). So:
 * - a replacement found here: DIFF_SOME with its inputs, the decision stays this provider's;
 * - changed inputs: DIFF_UNKNOWN, the engine finds the same changes in the inputs and names them;
 * - drift only: DIFF_SOME, as the inputs are equal and the engine's own diff would find nothing;
 * - nothing: DIFF_NONE.
 */
export function diffAnswer({ replaces, updates, drift }: DiffDetail): DiffAnswer {
    if (replaces.length > 0)
        return { changes: true, replaces: [...new Set(replaces.map((p) => p.split(".")[0]))], deleteBeforeReplace: true };
    if (updates.length > 0) return { changes: undefined, replaces: [], deleteBeforeReplace: false };
    return { changes: drift.length > 0, replaces: [], deleteBeforeReplace: false };
}
