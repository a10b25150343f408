// Runs a short-lived program with its own environment and input, and collects its exit code and
// output. localcluster/run.ts does the same without an environment; CNI plugins (CNI_* variables)
// and exec probes (the container's environment, which may hold Secret values that must not
// appear on a command line) need one.
import { spawn } from "node:child_process";
import * as os from "node:os";
import { describe } from "../run";

export interface Collected {
    code: number;
    stdout: string;
    stderr: string;
}

export interface CollectOptions {
    env: Readonly<Record<string, string>>;
    input?: string;
    timeoutMs: number;
}

/** Resolves with the exit code (128 + signal number when killed) and output; rejects on a timeout or a failed start. */
export function spawnCollect(argv: readonly string[], opts: CollectOptions): Promise<Collected> {
    return new Promise((resolve, reject) => {
        const child = spawn(argv[0], argv.slice(1), { env: { ...opts.env }, detached: true, stdio: ["pipe", "pipe", "pipe"] });
        let stdout = "";
        let stderr = "";
        let timedOut = false;
        child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
        child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
        const timer = setTimeout(() => {
            timedOut = true;
            // Its own process group: a probe's or plugin's children die with it.
            if (child.pid !== undefined) {
                try {
                    process.kill(-child.pid, "SIGKILL");
                } catch {
                    /* gone */
                }
            }
        }, opts.timeoutMs);
        child.on("error", (e) => {
            clearTimeout(timer);
            reject(new Error(`${describe(argv)}: ${e.message}`));
        });
        child.on("close", (code, signal) => {
            clearTimeout(timer);
            if (timedOut) return reject(new Error(`${describe(argv)}: timed out after ${opts.timeoutMs} ms`));
            resolve({ code: code ?? 128 + (os.constants.signals[signal as NodeJS.Signals] ?? 0), stdout, stderr });
        });
        child.stdin.on("error", () => undefined);
        child.stdin.end(opts.input ?? "");
    });
}
