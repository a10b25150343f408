// A process a check keeps running while it acts (a multicast receiver, a capture): started, waited
// for until it says it is ready, then stopped by a signal and its output read.
import { spawn } from "node:child_process";

export interface Background {
    /** Sends `signal`, waits for the exit, bounded, and returns what it printed. */
    stop(signal?: NodeJS.Signals): Promise<{ stdout: string; stderr: string; code: number | null }>;
}

/** Starts argv and resolves once `ready` holds for its output so far; rejects if it exits first or within `timeoutMs`. */
export function startBackground(
    argv: readonly string[],
    ready: (stdout: string, stderr: string) => boolean,
    timeoutMs = 10_000,
): Promise<Background> {
    const [cmd, ...args] = argv;
    const child = spawn(cmd, args, { stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
    const stop: Background["stop"] = async (signal = "SIGTERM") => {
        child.kill(signal);
        const killer = setTimeout(() => child.kill("SIGKILL"), 5000);
        const code = await exited;
        clearTimeout(killer);
        return { stdout, stderr, code };
    };
    return new Promise((resolve, reject) => {
        const timer = setTimeout(
            () => void stop("SIGKILL").then(() => reject(new Error(`${argv.join(" ")} not ready in ${timeoutMs} ms:\n${stdout}${stderr}`))),
            timeoutMs,
        );
        const look = () => {
            if (!ready(stdout, stderr)) return;
            clearTimeout(timer);
            resolve({ stop });
        };
        child.stdout.on("data", (d) => ((stdout += d), look()));
        child.stderr.on("data", (d) => ((stderr += d), look()));
        void exited.then((code) => {
            clearTimeout(timer);
            reject(new Error(`${argv.join(" ")} exited (${code}) before it was ready:\n${stdout}${stderr}`));
        });
    });
}
