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
 * A read that fails is waited out the same way while `retry` says so: with OVN from the image a
 * zone's NB starts with the ovnkube-node pod the same up created. The last failure is thrown.
 */
export async function settle(
    read: () => Promise<Cells>,
    expected: Cells,
    timing: Settle,
    retry: (err: unknown) => boolean = () => false,
): Promise<Settled> {
    const start = Date.now();
    const deadline = start + timing.timeoutSeconds * 1000;
    const pause = () => new Promise((resolve) => setTimeout(resolve, Math.min(timing.intervalSeconds * 1000, deadline - Date.now())));
    for (;;) {
        let observed: Cells;
        try {
            observed = await read();
        } catch (err) {
            if (!retry(err) || Date.now() >= deadline) throw err;
            await pause();
            continue;
        }
        const differences = mismatches(expected, observed);
        const now = Date.now();
        if (differences.length === 0 || now >= deadline) return { observed, differences, waitedMs: now - start };
        await pause();
    }
}
