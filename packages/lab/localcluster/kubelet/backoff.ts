// The kubelet's crash-loop back-off (pkg/kubelet: flowcontrol.NewBackOff(10 s, 5 min)). The first
// restart after a crash is immediate; each further crash doubles the wait, up to 5 minutes; an
// entry not moved for 2 × 5 min (a container that ran 10 minutes) starts again at 10 s. Pure.

export const INITIAL_BACKOFF_MS = 10_000;
export const MAX_BACKOFF_MS = 300_000;

export interface Backoff {
    delayMs: number;
    lastUpdateMs: number;
}

function expired(eventMs: number, b: Backoff): boolean {
    return eventMs - b.lastUpdateMs > 2 * MAX_BACKOFF_MS;
}

/** flowcontrol.Backoff.Next at a restart: the delay that the next crash will have to wait. */
export function nextBackoff(b: Backoff | undefined, eventMs: number, nowMs: number): Backoff {
    if (!b || expired(eventMs, b)) return { delayMs: INITIAL_BACKOFF_MS, lastUpdateMs: nowMs };
    return { delayMs: Math.min(b.delayMs * 2, MAX_BACKOFF_MS), lastUpdateMs: nowMs };
}

/**
 * flowcontrol.Backoff.IsInBackOffSince for a container that finished at `finishedMs`: how long it
 * must still wait before its restart (0: restart now).
 */
export function backoffRemaining(b: Backoff | undefined, finishedMs: number, nowMs: number): number {
    if (!b || expired(finishedMs, b)) return 0;
    return Math.max(0, finishedMs + b.delayMs - nowMs);
}

/** Go's time.Duration rendering for whole seconds and minutes ("10s", "2m40s", "5m0s"). */
export function goDuration(ms: number): string {
    const s = Math.round(ms / 1000);
    return s < 60 ? `${s}s` : `${Math.floor(s / 60)}m${s % 60}s`;
}
