// The pods bound to this node (spec.nodeName), listed every second (a bounded poll instead of a
// watch: the client has no watch, and one list a second is cheap at lab scale), each handed to
// its own PodWorker by uid: a new uid starts a worker, a newer version updates it, a uid that
// disappeared from the API stops it.
import { PodWorker, WorkerContext } from "./podWorker";

const POLL_MS = 1000;

export class PodManager {
    private readonly workers = new Map<string, PodWorker>();
    private timer?: NodeJS.Timeout;
    private stopped = false;

    constructor(private readonly ctx: WorkerContext) {}

    start(): void {
        const tick = async () => {
            try {
                await this.poll();
            } catch (e) {
                this.ctx.log(`listing pods failed: ${(e as Error).message}`);
            }
            if (!this.stopped) this.timer = setTimeout(() => void tick(), POLL_MS);
        };
        void tick();
    }

    private async poll(): Promise<void> {
        const pods = await this.ctx.api.podsOnNode(this.ctx.config.nodeName);
        const seen = new Set<string>();
        for (const pod of pods) {
            const uid = pod.metadata?.uid;
            if (!uid) continue;
            seen.add(uid);
            const worker = this.workers.get(uid);
            if (worker) worker.update(pod);
            else this.workers.set(uid, new PodWorker(this.ctx, pod));
        }
        for (const [uid, worker] of this.workers) {
            if (worker.finished) this.workers.delete(uid);
            else if (!seen.has(uid)) worker.markGone();
        }
    }

    /** Kills every container at once (this process is exiting). */
    killAll(): void {
        this.stopped = true;
        clearTimeout(this.timer);
        for (const w of this.workers.values()) w.killNow();
    }
}
