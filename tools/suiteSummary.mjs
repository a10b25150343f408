// A test reporter that prints, after everything else, what to read at the end of a long TAP stream
// (CI keeps only its end): how long each test file ran, the longest first, the figures that keep
// the suite's time in check; then each failed test with its file and error.
// Plain JavaScript: node loads reporters before `--import tsx` takes effect.

/** The first lines of a failure's own message and where it was thrown (the runner wraps it in `cause`). */
function firstLines(error, count) {
    const inner = error?.cause ?? error;
    const lines = String(inner?.stack ?? inner?.message ?? error).split("\n");
    const frame = lines.find((l) => /^\s+at /.test(l));
    const message = lines.filter((l) => !/^\s+at /.test(l)).slice(0, count);
    return [...message, ...(frame ? [frame.trim()] : [])].map((l) => `    ${l}`).join("\n");
}

/** Wall time per file, from its first event to its last. */
function fileTimes(spans, started) {
    const root = `${process.cwd()}/`;
    const rows = [...spans]
        .map(([file, s]) => [(s.last - s.first) / 1000, file.startsWith(root) ? file.slice(root.length) : file])
        .sort((a, b) => b[0] - a[0])
        .map(([secs, file]) => `#   ${secs.toFixed(0).padStart(5)} s  ${file}`);
    return `\n# wall time per file, ${((Date.now() - started) / 1000).toFixed(0)} s in all\n${rows.join("\n")}\n`;
}

/** @param {AsyncIterable<{ type: string, data: { name: string, file?: string, nesting: number, details?: { error?: unknown } } }>} source */
export default async function* suiteSummary(source) {
    const started = Date.now();
    /** @type {Map<string, { first: number, last: number }>} */
    const spans = new Map();
    const failed = [];
    for await (const event of source) {
        const { name, file, nesting, details } = event.data ?? {};
        if (file) {
            const span = spans.get(file);
            if (span) span.last = Date.now();
            else spans.set(file, { first: Date.now(), last: Date.now() });
        }
        if (event.type === "test:fail") failed.push(`✖ ${file ?? "?"} › ${"  ".repeat(nesting)}${name}\n${firstLines(details?.error, 20)}`);
    }
    yield fileTimes(spans, started);
    yield failed.length === 0 ? "\n# failed tests: none\n" : `\n# failed tests: ${failed.length}\n${failed.join("\n")}\n`;
}
