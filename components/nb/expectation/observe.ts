// Live rows projected onto exactly the expected rows and columns, and where they differ from the
// plan. Pure: the caller reads NB (./reading) and decides what a difference means.
import type { Row } from "../../ovsdb/encoding";
import { sameValue } from "../core/rows";
import type { ExpectedRow } from "./reading";
import { liveCell, NO_ROW, severalRows, type Cell, type Cells } from "./cells";

/** The observed value of every expected column; markers when the row is missing or ambiguous. */
export function observe(rows: readonly ExpectedRow[], found: Readonly<Record<string, Row[]>>): Cells {
    const observed: Cells = {};
    for (const row of rows) {
        const live = found[row.text] ?? [];
        const cells: Record<string, Cell> = {};
        for (const [text, path] of Object.entries(row.paths)) {
            if (live.length === 1) cells[text] = liveCell(live[0][path.column], path.key);
            else cells[text] = live.length === 0 ? NO_ROW : severalRows(live.length);
        }
        observed[row.text] = cells;
    }
    return observed;
}

export interface Mismatch {
    row: string;
    column: string;
    expected: Cell;
    observed: Cell;
}

/** Every expected cell whose observed value differs, in the order the expectation lists them. */
export function mismatches(expected: Cells, observed: Cells): Mismatch[] {
    const out: Mismatch[] = [];
    for (const [row, columns] of Object.entries(expected)) {
        for (const [column, value] of Object.entries(columns)) {
            const seen = observed[row]?.[column] ?? NO_ROW;
            if (!sameValue(value, seen)) out.push({ row, column, expected: value, observed: seen });
        }
    }
    return out;
}

export const mismatchLine = (m: Mismatch) =>
    `${m.row} ${m.column}: expected ${JSON.stringify(m.expected)}, observed ${JSON.stringify(m.observed)}`;

/**
 * The failure of an expectation that did not come true in time: one line per difference, and
 * what to do about it. ovnkube owns these rows and rewrites them from what it reads, so changing
 * NB by hand would not last; the fix is in ovnkube's inputs.
 */
export function notRealised(type: string, subject: string, waitedSeconds: number, list: readonly Mismatch[]): string {
    return [
        `${type} ${subject}: after ${waitedSeconds} s the Northbound database still differs from the plan in ${list.length} place${list.length === 1 ? "" : "s"}:`,
        ...list.map((m) => `  ${mismatchLine(m)}`),
        "ovnkube owns these rows and rewrites them from what it reads: fix those inputs (the Node annotations such as " +
            "k8s.ovn.org/node-subnets, the chassis system-id, ovnkube's flags and ConfigMap ovn-config) or see the logs of " +
            "ovnkube-master and ovnkube-node. Nothing was written to the Northbound database.",
    ].join("\n");
}
