// One container of a pod across its restarts: the running attempt, the last finished one, the
// crash-loop back-off, its probes, and its ContainerStatus as the kubelet reports it (state
// running / waiting / terminated, lastState, restartCount, ready, started).
import { randomBytes } from "node:crypto";
import { Backoff, backoffRemaining, goDuration, nextBackoff } from "./backoff";
import { WaitingError } from "./errors";
import { readTextOr } from "./hostfs";
import { terminationMessageFromLog } from "./logs";
import { ProbeTarget, ProbeWorker } from "./probes";
import { ContainerExit, ContainerProcess, LaunchSpec } from "./process";
import { apiTime } from "./time";
import type { Container, ContainerState, ContainerStatus } from "./types";

/** Scheme of the container IDs in statuses (`<runtime>://<id>`, as containerd:// or cri-o://). */
export const CONTAINER_ID_SCHEME = "process";

type Terminated = NonNullable<ContainerState["terminated"]>;

export interface AttemptFiles {
    /** Descriptor of the attempt's log file (this slot closes it). */
    logFd: number;
    /** The same file as this process reads it, for the termination message. */
    logPath: string;
}

export class ContainerSlot {
    restartCount = 0;
    private proc?: ContainerProcess;
    private containerId = "";
    private logPath = "";
    private lastExit?: Terminated;
    /** When the last attempt finished, to the millisecond (the status keeps whole seconds only). */
    private lastExitMs = 0;
    private previousExit?: Terminated;
    private waiting?: { reason: string; message?: string };
    private backoff?: Backoff;
    private probes: ProbeWorker[] = [];
    private ready = false;
    private startupDone = true;

    constructor(
        readonly container: Container,
        readonly init: boolean,
        /** The pod's termination grace period: how long a probe-failed container gets to exit. */
        private readonly graceMs: number,
        /** Called when something changed that the pod's status or sync must see (an exit, a probe result). */
        private readonly changed: () => void,
    ) {}

    get name(): string {
        return this.container.name;
    }

    get running(): boolean {
        return this.proc?.running === true;
    }

    get everStarted(): boolean {
        return this.proc !== undefined;
    }

    /** Exit code of the last finished attempt, or undefined while none finished. */
    get exitCode(): number | undefined {
        return this.running ? undefined : this.lastExit?.exitCode;
    }

    /** Why the container does not run now (configuration, setup, back-off); cleared by a start. */
    setWaiting(e: WaitingError | { reason: string; message?: string }): void {
        this.waiting = { reason: e.reason, message: e.message };
    }

    /**
     * With a finished attempt that should restart: ms still to wait under the back-off (and the
     * CrashLoopBackOff waiting state meanwhile), or 0 when it may restart now, which moves the back-off on.
     */
    restartDelay(podLabel: string, now = Date.now()): number {
        const finished = this.lastExitMs;
        const remaining = backoffRemaining(this.backoff, finished, now);
        if (remaining > 0) {
            this.waiting = { reason: "CrashLoopBackOff", message: `back-off ${goDuration(this.backoff!.delayMs)} restarting failed container=${this.name} pod=${podLabel}` };
            return remaining;
        }
        this.backoff = nextBackoff(this.backoff, finished, now);
        return 0;
    }

    /** Starts an attempt; probes begin once the command runs. */
    start(spec: LaunchSpec, files: AttemptFiles, probeTarget: (pid: number) => ProbeTarget): void {
        if (this.proc) this.restartCount++;
        this.previousExit = this.lastExit;
        this.lastExit = undefined;
        this.waiting = undefined;
        this.ready = false;
        this.containerId = `${CONTAINER_ID_SCHEME}://${randomBytes(32).toString("hex")}`;
        this.logPath = files.logPath;
        const proc = new ContainerProcess(spec, files.logFd);
        this.proc = proc;
        proc.started.then(
            () => this.startProbes(probeTarget(proc.pid)),
            () => undefined,
        );
        void proc.exited.then((exit) => {
            if (this.proc !== proc) return;
            this.stopProbes();
            this.ready = false;
            this.lastExit = this.terminated(proc, exit);
            this.lastExitMs = exit.finishedAt.getTime();
            this.changed();
        });
        this.changed();
    }

    private terminated(proc: ContainerProcess, exit: ContainerExit): Terminated {
        const t: Terminated = {
            exitCode: exit.startError ? 128 : exit.exitCode,
            reason: exit.startError ? "StartError" : exit.exitCode === 0 ? "Completed" : "Error",
            startedAt: apiTime(proc.startedAt),
            finishedAt: apiTime(exit.finishedAt),
            containerID: this.containerId,
        };
        if (exit.startError) t.message = exit.startError;
        else if (exit.exitCode !== 0 && this.container.terminationMessagePolicy === "FallbackToLogsOnError") {
            const msg = terminationMessageFromLog(readTextOr(this.logPath));
            if (msg) t.message = msg;
        }
        return t;
    }

    private startProbes(target: ProbeTarget): void {
        if (!this.running) return;
        const c = this.container;
        const readinessAndLiveness = () => {
            if (c.readinessProbe) {
                this.probes.push(
                    new ProbeWorker("readiness", c.readinessProbe, target, (ok) => {
                        this.ready = ok;
                        this.changed();
                    }),
                );
            } else this.ready = true;
            if (c.livenessProbe) this.probes.push(new ProbeWorker("liveness", c.livenessProbe, target, (ok) => ok || void this.proc?.stop(this.graceMs)));
            this.changed();
        };
        if (c.startupProbe) {
            this.startupDone = false;
            this.probes.push(
                new ProbeWorker("startup", c.startupProbe, target, (ok) => {
                    if (!ok) return void this.proc?.stop(this.graceMs);
                    this.startupDone = true;
                    readinessAndLiveness();
                }),
            );
        } else {
            this.startupDone = true;
            readinessAndLiveness();
        }
    }

    private stopProbes(): void {
        for (const p of this.probes) p.stop();
        this.probes = [];
    }

    /** Stops the running attempt: TERM, KILL after the grace period. */
    async stop(graceMs: number): Promise<void> {
        this.stopProbes();
        if (this.proc?.running) await this.proc.stop(graceMs);
    }

    /** Kills at once (the kubelet process is going away). */
    kill(): void {
        this.stopProbes();
        if (this.proc?.running) this.proc.signalGroup("SIGKILL");
    }

    status(): ContainerStatus {
        const c = this.container;
        const base = { name: c.name, image: c.image ?? "", imageID: "", restartCount: this.restartCount };
        let state: ContainerState;
        let lastState: ContainerState = {};
        if (this.running) {
            state = { running: { startedAt: apiTime(this.proc!.startedAt) } };
            if (this.previousExit) lastState = { terminated: this.previousExit };
        } else if (this.waiting) {
            state = { waiting: this.waiting };
            if (this.lastExit) lastState = { terminated: this.lastExit };
        } else if (this.lastExit) {
            state = { terminated: this.lastExit };
            if (this.previousExit) lastState = { terminated: this.previousExit };
        } else {
            state = { waiting: { reason: "ContainerCreating" } };
        }
        const running = this.running;
        // As the prober manager reports them: an init container is ready once it completed successfully.
        const ready = this.init ? state.terminated?.exitCode === 0 : running && this.startupDone && this.ready;
        return {
            ...base,
            ...(this.proc ? { containerID: this.containerId } : {}),
            state,
            lastState,
            ready,
            started: running && this.startupDone,
        };
    }
}
