// One cell of the fault matrix (docs/faults.md), reported by the test that proves it: a diagnostic
// that tools/faultMatrix.mjs (and the suite's summary) collect into one table.
import type { TestContext } from "node:test";

/** How a cell's diagnostic starts, as tools/faultMatrix.mjs reads it (FAULT_CELL there). */
const FAULT_CELL = "fault cell ";

export interface FaultCell {
    fault: string;
    /** Where in the up it was injected. */
    point: string;
    mode: "Pulumi" | "ovnkube";
    /** What the user saw, in a few words, with the figure that bounds it. */
    outcome: string;
    /** From the fault's end to the up that converged (or, with no up needed, to the check that passed). */
    convergeSeconds?: number;
}

export function reportFaultCell(t: Pick<TestContext, "diagnostic">, cell: FaultCell): void {
    t.diagnostic(FAULT_CELL + JSON.stringify(cell));
}

/** Seconds since `t0` (a Date.now()). */
export const secondsSince = (t0: number): number => (Date.now() - t0) / 1000;
