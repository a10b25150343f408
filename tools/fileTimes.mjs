// A test reporter that prints, after everything else, how long each test file ran (wall time from
// its first event to its last), the longest first: the figures that keep the suite's time in check.
// Plain JavaScript: node loads reporters before `--import tsx` takes effect.

/** @param {AsyncIterable<{ type: string, data: { file?: string } }>} source */
export default async function* fileTimes(source) {
    const started = Date.now();
    /** @type {Map<string, { first: number, last: number }>} */
    const spans = new Map();
    for await (const event of source) {
        const file = event.data?.file;
        if (!file) continue;
        const now = Date.now();
        const span = spans.get(file);
        if (span) span.last = now;
        else spans.set(file, { first: now, last: now });
    }
    const root = process.cwd() + "/";
    const rows = [...spans]
        .map(([file, s]) => [(s.last - s.first) / 1000, file.startsWith(root) ? file.slice(root.length) : file])
        .sort((a, b) => b[0] - a[0])
        .map(([secs, file]) => `#   ${secs.toFixed(0).padStart(5)} s  ${file}`);
    yield `\n# wall time per file, ${((Date.now() - started) / 1000).toFixed(0)} s in all\n${rows.join("\n")}\n`;
}
