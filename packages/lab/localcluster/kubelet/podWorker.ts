// One pod bound to this node, from first sight to confirmed deletion, as the kubelet's pod worker
// drives it: sandbox (pods with their own network), volumes, init containers one by one to
// completion, then the containers, restarted by the restart policy under back-off; the pod's
// status reported whenever it changes; on deletion the containers stopped within the grace
// period, the sandbox torn down and the deletion confirmed.
import * as fs from "node:fs";
import { KubeletApi } from "./api";
import { CniHost } from "./cni";
import { ContainerSlot } from "./containerSlot";
import { WaitingError, setupError } from "./errors";
import { filesInHost, inHost, mkdirInHost, writeFileInHost } from "./hostfs";
import { containerLogPath, podLogDir } from "./logs";
import { containerMounts, etcHostsMount, imageMounts, podDir, volumeMounts } from "./mounts";
import type { KubeletConfig } from "./options";
import { podPhase, podStatus } from "./podStatus";
import type { LaunchSpec } from "./process";
import { PodObjects, processEnv, referencedObjects, resolveArgv, resolveEnv } from "./resolve";
import { SandboxRecord, createSandbox, removeSandbox } from "./sandbox";
import { serviceEnv } from "./serviceEnv";
import { apiTime } from "./time";
import { PodTokens } from "./tokens";
import type { Container, Pod } from "./types";
import { etcHostsContent } from "./volumeFiles";
import { setupVolumes } from "./volumes";

export interface WorkerContext {
    api: KubeletApi;
    config: KubeletConfig;
    cni: CniHost;
    log: (line: string) => void;
}

/** Between syncs when nothing happens; a container exit or a pod update wakes the worker at once. */
const TICK_MS = 1000;
/** Retry of a failed setup or container configuration (the kubelet's pod worker back-off). */
const RETRY_MS = 10_000;
/** ConfigMap, Secret and token contents of volumes are refreshed this often (the kubelet's sync period). */
const VOLUME_RESYNC_MS = 60_000;
const DEFAULT_GRACE_SECONDS = 30;

const resourceVersionOf = (p: Pod) => Number(p.metadata?.resourceVersion ?? 0);

export class PodWorker {
    private pod: Pod;
    private gone = false;
    private done = false;
    private containersStopped = false;
    /** Already Succeeded or Failed when first seen: nothing to run, only its deletion to confirm. */
    private readonly terminalAtStart: boolean;
    private readonly initSlots: ContainerSlot[];
    private readonly slots: ContainerSlot[];
    private sandbox?: SandboxRecord;
    private volumesAt = 0;
    private setupRetryAt = 0;
    private setupWaiting?: WaitingError;
    private readonly retryAt = new Map<string, number>();
    private readonly tokens: PodTokens;
    private readonly startTime = apiTime(new Date());
    private lastSent = "";
    private woken = false;
    private endPause: () => void = () => undefined;

    constructor(
        private readonly ctx: WorkerContext,
        pod: Pod,
    ) {
        this.pod = pod;
        this.terminalAtStart = pod.status?.phase === "Succeeded" || pod.status?.phase === "Failed";
        const grace = (pod.spec?.terminationGracePeriodSeconds ?? DEFAULT_GRACE_SECONDS) * 1000;
        const changed = () => this.wake();
        this.initSlots = (pod.spec?.initContainers ?? []).map((c) => new ContainerSlot(c, true, grace, changed));
        this.slots = (pod.spec?.containers ?? []).map((c) => new ContainerSlot(c, false, grace, changed));
        this.tokens = new PodTokens(ctx.api, pod);
        void this.loop();
    }

    get finished(): boolean {
        return this.done;
    }

    /** `namespace/name`, for logs. */
    get label(): string {
        return `${this.pod.metadata!.namespace}/${this.pod.metadata!.name}`;
    }

    /** The kubelet's format.Pod: `name_namespace(uid)`. */
    private get podRef(): string {
        const m = this.pod.metadata!;
        return `${m.name}_${m.namespace}(${m.uid})`;
    }

    /** A version of the pod from the API: taken (and acted on at once) when newer than the one held. */
    update(pod: Pod): void {
        const [incoming, current] = [resourceVersionOf(pod), resourceVersionOf(this.pod)];
        if (incoming <= current) return;
        this.pod = pod;
        this.wake();
    }

    /** The pod left the API without our confirmation (force deletion): stop it all the same. */
    markGone(): void {
        this.gone = true;
        this.wake();
    }

    /** This process is going away: its containers must not outlive it unseen. */
    killNow(): void {
        for (const s of [...this.initSlots, ...this.slots]) s.kill();
    }

    private async loop(): Promise<void> {
        while (!this.done) {
            try {
                await this.sync();
            } catch (e) {
                this.ctx.log(`pod ${this.label}: ${(e as Error).message}`);
            }
            if (this.done) break;
            // A wake-up that came while syncing is not lost: it skips the pause.
            if (!this.woken) {
                await new Promise<void>((resolve) => {
                    const timer = setTimeout(resolve, TICK_MS);
                    this.endPause = () => {
                        clearTimeout(timer);
                        resolve();
                    };
                });
            }
            this.woken = false;
            this.endPause = () => undefined;
        }
    }

    /** Runs the next sync now (a container exited, a probe flipped, the pod changed). */
    private wake(): void {
        this.woken = true;
        this.endPause();
    }

    private get hostNetwork(): boolean {
        return this.pod.spec?.hostNetwork === true;
    }

    private addresses(): { hostIPs: string[]; podIPs: string[] } {
        const hostIPs = [this.ctx.config.internalIP];
        return { hostIPs, podIPs: this.hostNetwork ? hostIPs : (this.sandbox?.podIPs ?? []) };
    }

    /** The pod's hostname: spec.hostname or its name (at most 63 characters). */
    private hostname(): string {
        return (this.pod.spec?.hostname || this.pod.metadata!.name!).slice(0, 63);
    }

    private async sync(): Promise<void> {
        if (this.pod.metadata?.deletionTimestamp || this.gone) return this.terminate();
        if (this.terminalAtStart) return;
        const phase = podPhase(this.pod, this.runtimeStatuses());
        if (phase === "Succeeded" || phase === "Failed") {
            // A finished pod keeps its status but no longer its processes or its network.
            await this.stopEverything(0);
            return this.report();
        }
        if (await this.setUp()) {
            if (await this.syncInitContainers()) await this.syncContainers();
        }
        await this.report();
    }

    /** Sandbox and volumes; false while they cannot be set up (retried after RETRY_MS). */
    private async setUp(): Promise<boolean> {
        const now = Date.now();
        const firstTime = this.volumesAt === 0;
        if (firstTime && now < this.setupRetryAt) return false;
        const volumesDue = now - this.volumesAt >= VOLUME_RESYNC_MS || now >= this.tokens.nextRefreshMs();
        try {
            if (!this.hostNetwork && !this.sandbox) {
                const m = this.pod.metadata!;
                this.sandbox = await createSandbox(this.ctx.cni, this.ctx.config.rootDir, { namespace: m.namespace!, name: m.name!, uid: m.uid! });
            }
            if (volumesDue) {
                await this.syncVolumes();
                this.volumesAt = now;
            }
            this.setupWaiting = undefined;
            return true;
        } catch (e) {
            if (!firstTime) {
                // Running containers keep their last good files; the next resync tries again.
                this.ctx.log(`pod ${this.label}: volume refresh failed: ${(e as Error).message}`);
                this.volumesAt = now;
                return true;
            }
            this.setupWaiting = e instanceof WaitingError ? e : setupError((e as Error).message);
            this.setupRetryAt = now + RETRY_MS;
            this.ctx.log(`pod ${this.label}: ${this.setupWaiting.message}`);
            for (const s of [...this.initSlots, ...this.slots]) if (!s.everStarted) s.setWaiting(this.setupWaiting);
            return false;
        }
    }

    private async fetchObjects(): Promise<PodObjects> {
        const ns = this.pod.metadata!.namespace!;
        const refs = referencedObjects(this.pod);
        const get = async <T>(names: Set<string>, fetch: (name: string) => Promise<T | undefined>) =>
            new Map(await Promise.all([...names].map(async (n): Promise<[string, T | undefined]> => [n, await fetch(n)])));
        return {
            configMaps: await get(refs.configMaps, (n) => this.ctx.api.configMap(ns, n)),
            secrets: await get(refs.secrets, (n) => this.ctx.api.secret(ns, n)),
        };
    }

    private async syncVolumes(): Promise<void> {
        const c = this.ctx.config;
        const objects = await this.fetchObjects();
        const tokens = await this.tokens.current();
        setupVolumes({ holderPid: c.holderPid, rootDir: c.rootDir }, this.pod, objects, this.addresses(), tokens);
        if (!this.hostNetwork) {
            const file = etcHostsMount(c.rootDir, this.pod.metadata!.uid!).source;
            writeFileInHost(c.holderPid, file, etcHostsContent(this.addresses().podIPs, this.hostname(), this.pod.spec?.hostAliases ?? []));
        }
    }

    /** True once every init container has completed successfully. */
    private async syncInitContainers(): Promise<boolean> {
        for (const slot of this.initSlots) {
            if (slot.running) return false;
            if (slot.exitCode === 0) continue;
            if (slot.everStarted && slot.exitCode !== undefined) {
                if ((this.pod.spec?.restartPolicy ?? "Always") === "Never") return false;
                if (slot.restartDelay(this.podRef) > 0) return false;
            }
            await this.startSlot(slot);
            return false;
        }
        return true;
    }

    private async syncContainers(): Promise<void> {
        const policy = this.pod.spec?.restartPolicy ?? "Always";
        for (const slot of this.slots) {
            if (slot.running) continue;
            if (slot.everStarted && slot.exitCode !== undefined) {
                const restart = policy === "Always" || (policy === "OnFailure" && slot.exitCode !== 0);
                if (!restart || slot.restartDelay(this.podRef) > 0) continue;
            }
            await this.startSlot(slot);
        }
    }

    private async startSlot(slot: ContainerSlot): Promise<void> {
        const now = Date.now();
        if (now < (this.retryAt.get(slot.name) ?? 0)) return;
        try {
            const spec = await this.launchSpec(slot.container);
            const attempt = slot.everStarted ? slot.restartCount + 1 : 0;
            const m = this.pod.metadata!;
            const c = this.ctx.config;
            const logFile = containerLogPath(c.podLogsDir, m.namespace!, m.name!, m.uid!, slot.name, attempt);
            mkdirInHost(c.holderPid, logFile.slice(0, logFile.lastIndexOf("/")));
            const logPath = inHost(c.holderPid, logFile);
            const logFd = fs.openSync(logPath, "a", 0o640);
            slot.start(spec, { logFd, logPath }, (pid) => ({ pid, env: spec.env, podIP: this.addresses().podIPs[0] ?? "", container: slot.container }));
            this.retryAt.delete(slot.name);
            this.ctx.log(`pod ${this.label}: started container ${slot.name} (attempt ${attempt})`);
        } catch (e) {
            const w = e instanceof WaitingError ? e : new WaitingError("CreateContainerError", (e as Error).message);
            slot.setWaiting(w);
            this.retryAt.set(slot.name, now + RETRY_MS);
            this.ctx.log(`pod ${this.label}: container ${slot.name}: ${w.reason}: ${w.message}`);
        }
    }

    /** Everything a container attempt starts with, resolved now (the kubelet resolves at each start). */
    private async launchSpec(container: Container): Promise<LaunchSpec> {
        const c = this.ctx.config;
        const pod = this.pod;
        const objects = await this.fetchObjects();
        const services = serviceEnv(await this.ctx.api.services(), pod.metadata!.namespace!, pod.spec?.enableServiceLinks ?? true);
        const env = resolveEnv(pod, container, { objects, services, ...this.addresses() });
        const argv = resolveArgv(container, env);
        const imageDir = container.image ? c.images[container.image] : undefined;
        const image = imageDir ? imageMounts(imageDir, filesInHost(c.holderPid, imageDir)) : [];
        const mounts = containerMounts({
            image,
            etcHosts: this.hostNetwork ? undefined : etcHostsMount(c.rootDir, pod.metadata!.uid!),
            volumes: volumeMounts(pod, container, env, c.rootDir),
        });
        const hostname = this.hostNetwork ? c.nodeName : this.hostname();
        return {
            holderPid: c.holderPid,
            netnsPath: this.sandbox?.netnsPath,
            hostname: this.hostNetwork ? undefined : hostname,
            mounts,
            workingDir: container.workingDir,
            argv,
            env: processEnv(env, hostname),
        };
    }

    private runtimeStatuses() {
        return {
            initContainerStatuses: this.initSlots.map((s) => s.status()),
            containerStatuses: this.slots.map((s) => s.status()),
        };
    }

    /** Sends the status when it differs from what was last sent. */
    private async report(): Promise<void> {
        const status = podStatus(
            this.pod,
            { ...this.runtimeStatuses(), sandboxReady: this.hostNetwork || this.sandbox !== undefined, ...this.addresses(), startTime: this.startTime },
            apiTime(new Date()),
        );
        const key = JSON.stringify(status);
        if (key === this.lastSent) return;
        const updated = await this.ctx.api.patchPodStatus(this.pod, status);
        this.lastSent = key;
        this.update(updated);
    }

    /** Stops the containers (grace period in ms) and removes the sandbox; safe to repeat. */
    private async stopEverything(graceMs: number): Promise<void> {
        if (!this.containersStopped) {
            await Promise.all([...this.initSlots, ...this.slots].map((s) => s.stop(graceMs)));
            this.containersStopped = true;
        }
        if (this.sandbox) {
            await removeSandbox(this.ctx.cni, this.ctx.config.rootDir, this.pod.metadata!.uid!, this.sandbox);
            this.sandbox = undefined;
        }
    }

    /** Deletion: stop within the grace period, tear down, remove the pod's files, confirm. */
    private async terminate(): Promise<void> {
        const m = this.pod.metadata!;
        const graceSeconds = m.deletionGracePeriodSeconds ?? this.pod.spec?.terminationGracePeriodSeconds ?? DEFAULT_GRACE_SECONDS;
        await this.stopEverything(graceSeconds * 1000);
        const c = this.ctx.config;
        fs.rmSync(inHost(c.holderPid, podDir(c.rootDir, m.uid!)), { recursive: true, force: true });
        fs.rmSync(inHost(c.holderPid, podLogDir(c.podLogsDir, m.namespace!, m.name!, m.uid!)), { recursive: true, force: true });
        if (!this.gone) await this.ctx.api.confirmPodDeletion(this.pod);
        this.ctx.log(`pod ${this.label}: terminated${this.gone ? " (already gone from the API)" : ", deletion confirmed"}`);
        this.done = true;
    }
}
