// A test reporter that prints, after everything else, each failed test with its file and error.
// CI keeps only the end of a long TAP stream; this puts what failed where it is read.
// Plain JavaScript: node loads reporters before `--import tsx` takes effect.

/** The first lines of a failure's own message and where it was thrown (the runner wraps it in `cause`). */
function firstLines(error, count) {
    const inner = error?.cause ?? error;
    const lines = String(inner?.stack ?? inner?.message ?? error).split("\n");
    const frame = lines.find((l) => /^\s+at /.test(l));
    const message = lines.filter((l) => !/^\s+at /.test(l)).slice(0, count);
    return [...message, ...(frame ? [frame.trim()] : [])].map((l) => `    ${l}`).join("\n");
}

/** @param {AsyncIterable<{ type: string, data: { name: string, file?: string, nesting: number, details?: { error?: unknown } } }>} source */
export default async function* failedTests(source) {
    const failed = [];
    for await (const event of source) {
        if (event.type !== "test:fail") continue;
        const { name, file, nesting, details } = event.data;
        failed.push(`✖ ${file ?? "?"} › ${"  ".repeat(nesting)}${name}\n${firstLines(details?.error, 20)}`);
    }
    yield failed.length === 0 ? "\n# failed tests: none\n" : `\n# failed tests: ${failed.length}\n${failed.join("\n")}\n`;
}
