// A machine-wide exclusive lock for work on shared caches (e.g. building the Debian 13 base under
// /var/cache): two `up`s started at once must not build into the same place. The lock is a kernel
// flock(2) held by a `flock` process whose stdin is a pipe from us: when we release it, or when
// this process dies in any way, the pipe closes, `flock` exits and the kernel drops the lock. No
// stale lock file can outlive a crash.
import { spawn } from "node:child_process";

/** Runs `fn` while holding the exclusive lock on `lockFile`; `onWait` is called once if another process holds it. */
export async function withMachineLock<T>(
    lockFile: string,
    fn: () => Promise<T>,
    opts: { onWait?: () => void; timeoutMs?: number } = {},
): Promise<T> {
    const timeoutMs = opts.timeoutMs ?? 20 * 60_000;
    // The script is constant; the lock file arrives as argv. `cat` holds the lock until stdin closes.
    const holder = spawn(
        "flock",
        ["--exclusive", "--timeout", String(Math.ceil(timeoutMs / 1000)), lockFile, "sh", "-c", "echo locked; exec cat >/dev/null"],
        { stdio: ["pipe", "pipe", "pipe"] },
    );
    const exited = new Promise<number | null>((resolve) => holder.on("close", resolve));
    holder.stdin.on("error", () => undefined);
    await new Promise<void>((resolve, reject) => {
        let err = "";
        const waiting = setTimeout(() => opts.onWait?.(), 1000);
        const settle = (e?: Error) => {
            clearTimeout(waiting);
            holder.stdout.removeAllListeners("data");
            e ? reject(e) : resolve();
        };
        holder.stderr.on("data", (d: Buffer) => (err += d.toString()));
        holder.stdout.on("data", (d: Buffer) => d.toString().includes("locked") && settle());
        holder.on("error", (e) => settle(new Error(`cannot run flock for ${lockFile}: ${e.message} (apt-get install -y util-linux)`)));
        void exited.then((code) =>
            settle(
                new Error(
                    `could not lock ${lockFile} within ${timeoutMs / 1000} s (flock exit ${code})${err.trim() ? `: ${err.trim()}` : ""}; ` +
                        "another process holds it: wait for it to finish, or end it",
                ),
            ),
        );
    });
    try {
        return await fn();
    } finally {
        holder.stdin.end();
        await exited;
    }
}
