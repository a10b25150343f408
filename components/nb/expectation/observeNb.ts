// The effects of an expectation: read its rows from NB (one read-only transaction through the
// NB session every NB resource uses) and, for create/update, read again until they are as planned
// or the settle time is over. Nothing here ever writes to NB.
import { withNb } from "../transact/session";
import { NB_DB } from "../core/tables";
import type { NbConnection } from "../kinds/common";
import type { Settle } from "./expectationInputs";
import { mismatches, observe, type Mismatch } from "./observe";
import { matchRows, parseExpectation, readPlan } from "./reading";
import type { Cells } from "./cells";

/** The observed value of every expected row and column, as NB holds it now. */
export async function observeNb(nb: NbConnection, expected: Cells): Promise<Cells> {
    const plan = readPlan(parseExpectation(expected));
    return withNb(nb, async (session) => observe(plan.rows, matchRows(plan, await session.transact(NB_DB, plan.ops))));
}

export interface Settled {
    observed: Cells;
    /** Empty when the rows are as planned. */
    differences: Mismatch[];
    waitedMs: number;
}

/**
 * Reads until nothing differs, or until the timeout, reading once more at the deadline. ovnkube
 * realises rows within seconds of its start, so a difference seen now may be gone at the next read.
 */
export async function settle(read: () => Promise<Cells>, expected: Cells, timing: Settle): Promise<Settled> {
    const start = Date.now();
    const deadline = start + timing.timeoutSeconds * 1000;
    for (;;) {
        const observed = await read();
        const differences = mismatches(expected, observed);
        const now = Date.now();
        if (differences.length === 0 || now >= deadline) return { observed, differences, waitedMs: now - start };
        await new Promise((resolve) => setTimeout(resolve, Math.min(timing.intervalSeconds * 1000, deadline - now)));
    }
}
