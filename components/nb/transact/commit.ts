// Running a reconciled transaction and reading its outcome: a failed guard becomes an error that
// names the row another writer changed (nothing was applied), a count other than expected
// becomes an error too, and otherwise the UUIDs of the inserted rows come back for the state.
// Either error makes the provider call fail, so the engine keeps the state it had.
import type { OvsdbTransactor } from "../../ovsdb/client";
import { uuidText } from "../../ovsdb/encoding";
import type { OperationResult } from "../../ovsdb/operations";
import { describeRow, type Step } from "./guards";
import { NB_DB } from "../core/tables";

const RERUN = "nothing was applied and the state is unchanged; run again to apply the plan to what NB holds now";

/** The error for a wait of `steps` that failed, or undefined when `err` is something else. */
export function concurrentChange(steps: readonly Step[], err: unknown): Error | undefined {
    const e = err as { name?: unknown; error?: unknown; index?: unknown };
    if (e?.name !== "OvsdbOperationError" || e.error !== "timed out" || typeof e.index !== "number") return undefined;
    const guard = steps[e.index]?.guards;
    if (!guard) return undefined;
    const what = guard.absent
        ? `another writer created a row carrying the tags of ${describeRow(guard.row)} after it was read`
        : `${describeRow(guard.row)} was changed or deleted by another writer after it was read`;
    const error = new Error(`${what}: ${RERUN}`);
    error.name = "NbConcurrentChange";
    return error;
}

/** Checks every count; returns row key → UUID of each inserted row. */
export function committedRows(steps: readonly Step[], results: readonly OperationResult[]): Record<string, string> {
    const inserted: Record<string, string> = {};
    steps.forEach((step, i) => {
        const result = results[i] as { count?: number; uuid?: unknown };
        if (step.inserts !== undefined) inserted[step.inserts] = uuidText(result.uuid as never);
        if (!step.counts) return;
        const { row, rule } = step.counts;
        const count = result.count ?? 0;
        if (rule === "one" ? count !== 1 : count < 1) {
            throw new Error(
                `${step.op.op} of ${describeRow(row)} matched ${count} rows, expected ${rule === "one" ? "exactly 1" : "at least 1"}: ` +
                    "the transaction was committed, so NB may hold part of the change; the state is unchanged: run again to converge",
            );
        }
    });
    return inserted;
}

/** Runs the steps as ONE transaction; row key → UUID of each inserted row. */
export async function commit(session: OvsdbTransactor, steps: readonly Step[]): Promise<Record<string, string>> {
    if (steps.length === 0) return {};
    let results: readonly OperationResult[];
    try {
        results = await session.transact(
            NB_DB,
            steps.map((s) => s.op),
        );
    } catch (err) {
        throw concurrentChange(steps, err) ?? err;
    }
    return committedRows(steps, results);
}
