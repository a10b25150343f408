// Where an operation's time goes: milestones (milliseconds from the operation's start, the first
// time each is reached) and totals of repeated work (count and summed milliseconds). The
// benchmark prints it next to a no-op `up`'s time.
export interface ProfileReport {
    /** e.g. "program: first registration" → ms since the operation started. */
    milestones: Record<string, number>;
    /** e.g. "state writes" → how often and how long in all. */
    totals: Record<string, { count: number; ms: number }>;
}

export class Profile {
    private readonly started = Date.now();
    private readonly milestones: Record<string, number> = {};
    private readonly totals: Record<string, { count: number; ms: number }> = {};

    reached(name: string): void {
        this.milestones[name] ??= Date.now() - this.started;
    }

    add(name: string, ms: number): void {
        const t = (this.totals[name] ??= { count: 0, ms: 0 });
        t.count++;
        t.ms += ms;
    }

    /** Runs `f` and adds its duration to `name`. */
    timed<T>(name: string, f: () => T): T {
        const t0 = Date.now();
        try {
            return f();
        } finally {
            this.add(name, Date.now() - t0);
        }
    }

    report(): ProfileReport {
        return { milestones: { ...this.milestones }, totals: structuredClone(this.totals) };
    }
}
