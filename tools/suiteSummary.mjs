// A test reporter that prints, after everything else, what to read at the end of a long TAP stream
// (CI keeps only its end): how long each test file took, the longest first, the figures that keep
// the suite's time in check; the fault matrix (./faultMatrix.mjs); then each failed test with its file and error.
// Plain JavaScript: node loads reporters before `--import tsx` takes effect.

import { resolve } from "node:path";
import { faultCellOf, matrixReport } from "./faultMatrix.mjs";

/** The first lines of a failure's own message and where it was thrown (the runner wraps it in `cause`). */
function firstLines(error, count) {
    const inner = error?.cause ?? error;
    const lines = String(inner?.stack ?? inner?.message ?? error).split("\n");
    const frame = lines.find((l) => /^\s+at /.test(l));
    const message = lines.filter((l) => !/^\s+at /.test(l)).slice(0, count);
    return [...message, ...(frame ? [frame.trim()] : [])].map((l) => `    ${l}`).join("\n");
}

/** Each file's duration, from its process's start to its end, its hooks included. */
function fileTimes(durations, total) {
    const root = `${process.cwd()}/`;
    const rows = [...durations]
        .sort((a, b) => b[1] - a[1])
        .map(([file, ms]) => `#   ${(ms / 1000).toFixed(0).padStart(5)} s  ${file.startsWith(root) ? file.slice(root.length) : file}`);
    return `\n# time per file; the whole run ${(total / 1000).toFixed(0)} s\n${rows.join("\n")}\n`;
}

/** @param {AsyncIterable<{ type: string, data: { name: string, file?: string, nesting: number, details?: { error?: unknown } } }>} source */
export default async function* suiteSummary(source) {
    /** @type {Map<string, number>} */
    const durations = new Map();
    const started = Date.now();
    const failed = [];
    const cells = [];
    for await (const event of source) {
        const { name, file, nesting, details } = event.data ?? {};
        // A file is a test of its own at nesting 0, named by its path (events give it absolute or relative).
        if (event.type === "test:complete" && nesting === 0 && file && resolve(name) === resolve(file))
            durations.set(resolve(file), details.duration_ms);
        const cell = faultCellOf(event);
        if (cell) cells.push(cell);
        if (event.type === "test:fail") failed.push(`✖ ${file ?? "?"} › ${"  ".repeat(nesting)}${name}\n${firstLines(details?.error, 20)}`);
    }
    yield fileTimes(durations, Date.now() - started);
    if (cells.length > 0) yield matrixReport(cells);
    yield failed.length === 0 ? "\n# failed tests: none\n" : `\n# failed tests: ${failed.length}\n${failed.join("\n")}\n`;
}
