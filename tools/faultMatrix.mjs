// The fault matrix (docs/faults.md) as a table, from the cells the tests report
// (test/support/faultMatrix.ts writes each as a diagnostic that starts with FAULT_CELL).
// A test reporter for `npm run faults`; suiteSummary.mjs prints the same table after `npm test`.
// Plain JavaScript: node loads reporters before `--import tsx` takes effect.

/** How a cell's diagnostic starts; test/support/faultMatrix.ts writes it (the one other place that spells it). */
export const FAULT_CELL = "fault cell ";

/** The cell a diagnostic event reports, or undefined. */
export function faultCellOf(event) {
    const message = event.type === "test:diagnostic" ? event.data?.message : undefined;
    return typeof message === "string" && message.startsWith(FAULT_CELL) ? JSON.parse(message.slice(FAULT_CELL.length)) : undefined;
}

const COLUMNS = [
    ["fault", (c) => c.fault],
    ["injected", (c) => c.point],
    ["mode", (c) => c.mode],
    ["outcome", (c) => c.outcome],
    ["converged in", (c) => (c.convergeSeconds === undefined ? "—" : `${c.convergeSeconds.toFixed(1)} s`)],
];

/** The cells as a Markdown table, in the order they ran. */
export function formatFaultMatrix(cells) {
    // A `|` inside a cell would end it: escaped, as Markdown reads it.
    const rows = [COLUMNS.map(([name]) => name), ...cells.map((c) => COLUMNS.map(([, value]) => String(value(c)).replaceAll("|", "\\|")))];
    const widths = COLUMNS.map((_, i) => Math.max(...rows.map((r) => r[i].length)));
    const line = (r) => `| ${r.map((v, i) => v.padEnd(widths[i])).join(" | ")} |`;
    return [line(rows[0]), line(widths.map((w) => "-".repeat(w))), ...rows.slice(1).map(line)].join("\n");
}

/** The table with its heading, as both reporters print it. */
export const matrixReport = (cells) => `\n# fault matrix: ${cells.length} cells (docs/faults.md)\n${formatFaultMatrix(cells)}\n`;

export default async function* faultMatrix(source) {
    const cells = [];
    for await (const event of source) {
        const cell = faultCellOf(event);
        if (cell) cells.push(cell);
    }
    yield matrixReport(cells);
}
