// Running programs for the local cluster: always an argv array, never a shell string, so that no
// value (a host name, an address, a pod name) is ever parsed by a shell on the way.
import { execFile } from "node:child_process";
import { shellCommand, shellQuote } from "@ovn-kubernetes-as-code/cluster/ssh";

export interface RunResult {
    code: number;
    stdout: string;
    stderr: string;
}

export interface RunOptions {
    /** Text written to the program's standard input (otherwise it is closed at once). */
    input?: string;
    /** Milliseconds before the program is killed and the call fails (default 60 s). */
    timeoutMs?: number;
}

/** Runs `argv` and resolves with its exit code and output; a non-zero exit is not an error here. */
export function run(argv: readonly string[], opts: RunOptions = {}): Promise<RunResult> {
    if (argv.length === 0) throw new Error("run: empty command");
    return new Promise((resolve, reject) => {
        const child = execFile(
            argv[0],
            argv.slice(1),
            { timeout: opts.timeoutMs ?? 60_000, maxBuffer: 64 * 1024 * 1024, encoding: "utf8" },
            (err, stdout, stderr) => {
                if (!err) return resolve({ code: 0, stdout, stderr });
                const e = err as NodeJS.ErrnoException & { code?: unknown; killed?: boolean; signal?: string };
                if (typeof e.code === "number") return resolve({ code: e.code, stdout, stderr });
                // Could not start, timed out or killed by a signal: the caller cannot act on an exit code.
                const why = e.killed ? `timed out after ${opts.timeoutMs ?? 60_000} ms` : e.signal ? `killed by ${e.signal}` : e.message;
                reject(new Error(`${describe(argv)}: ${why}${stderr ? `\n${stderr.trim()}` : ""}`));
            },
        );
        // Close stdin unless we feed it, so that nothing waits for input that never comes. A
        // program that exits without reading it (or never starts) must not crash us with EPIPE.
        child.stdin?.on("error", () => undefined);
        if (opts.input !== undefined) child.stdin?.end(opts.input);
        else child.stdin?.end();
    });
}

/** Runs `argv` and returns its stdout; throws with the command and its stderr on a non-zero exit. */
export async function check(argv: readonly string[], opts: RunOptions = {}): Promise<string> {
    const r = await run(argv, opts);
    if (r.code !== 0) {
        throw new Error(`${describe(argv)} failed (exit ${r.code})${r.stderr.trim() ? `: ${r.stderr.trim()}` : ""}`);
    }
    return r.stdout;
}

/** Quotes one word for a POSIX shell (for callers that build scripts for hostExec). */
export { shellQuote };

/** argv as one shell line, for error messages. */
export const describe = shellCommand;
