// Bounded polling: the API's answers settle asynchronously (controllers, finalizers), and a
// caller must get either the settled value or an error saying what it waited for and what it last saw.

export interface PollOptions {
    /** Total time allowed (milliseconds). */
    timeoutMs: number;
    /** Pause between attempts (default 250 ms). */
    intervalMs?: number;
    /** What is awaited, for the timeout message ("the default ServiceAccount"). */
    what: string;
    /** Checked before each attempt: a reason to stop waiting at once (e.g. the server process died). */
    giveUp?: () => string | undefined;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Calls `attempt` until it returns a value other than undefined, and resolves with it. An
 * exception of `attempt` counts as "not yet" (a server still starting refuses connections) and
 * its message is kept as the last observation. Throws after `timeoutMs`, naming `what` and that
 * last observation.
 */
export async function pollUntil<T>(attempt: () => Promise<T | undefined>, opts: PollOptions): Promise<T> {
    const deadline = Date.now() + opts.timeoutMs;
    let last = "no answer yet";
    for (;;) {
        const hopeless = opts.giveUp?.();
        if (hopeless) throw new Error(`gave up waiting for ${opts.what}: ${hopeless}`);
        try {
            const value = await attempt();
            if (value !== undefined) return value;
            last = "not yet";
        } catch (e) {
            last = (e as Error).message;
        }
        if (Date.now() >= deadline) {
            throw new Error(`timed out after ${opts.timeoutMs} ms waiting for ${opts.what} (last: ${last})`);
        }
        await sleep(Math.min(opts.intervalMs ?? 250, Math.max(0, deadline - Date.now())));
    }
}
