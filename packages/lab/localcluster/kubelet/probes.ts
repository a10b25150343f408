// Container probes as the kubelet's prober runs them (pkg/kubelet/prober): exec inside the
// container (its mount, UTS and network namespaces, with its environment), tcpSocket and httpGet
// from the kubelet's own network namespace (the host's) to the pod's address. A worker per probe
// keeps the thresholds: readiness starts failed, liveness starts succeeded, and a result only
// flips after successThreshold / failureThreshold consecutive outcomes.
import * as http from "node:http";
import * as https from "node:https";
import * as net from "node:net";
import { KUBELET_VERSION } from "./nodeObject";
import { spawnCollect } from "./spawnCollect";
import type { Container, Probe } from "./types";

export type ProbeKind = "readiness" | "liveness" | "startup";

export interface ProbeTarget {
    /** The container's main process: exec probes enter its namespaces. */
    pid: number;
    env: Readonly<Record<string, string>>;
    podIP: string;
    container: Container;
}

/** As the kubelet's prober sends it: `kube-probe/<major>.<minor>`. */
const PROBE_USER_AGENT = `kube-probe/${/^v(\d+\.\d+)/.exec(KUBELET_VERSION)![1]}`;

function resolvePort(port: number | string, c: Container): number {
    if (typeof port === "number") return port;
    const named = (c.ports ?? []).find((p) => p.name === port);
    if (named) return named.containerPort;
    const n = Number(port);
    if (Number.isInteger(n)) return n;
    throw new Error(`port ${port} names no port of container ${c.name}`);
}

function tcpProbe(host: string, port: number, timeoutMs: number): Promise<boolean> {
    return new Promise((resolve) => {
        const s = net.connect({ host, port, timeout: timeoutMs });
        const end = (ok: boolean) => {
            s.destroy();
            resolve(ok);
        };
        s.on("connect", () => end(true));
        s.on("timeout", () => end(false));
        s.on("error", () => end(false));
    });
}

function httpProbe(probe: NonNullable<Probe["httpGet"]>, host: string, port: number, timeoutMs: number): Promise<boolean> {
    const secure = probe.scheme === "HTTPS";
    return new Promise((resolve) => {
        const headers = Object.fromEntries((probe.httpHeaders ?? []).map((h) => [h.name, h.value]));
        // The kubelet does not verify a probed server's certificate.
        const req = (secure ? https : http).get(
            { host, port, path: probe.path ?? "/", headers: { "User-Agent": PROBE_USER_AGENT, ...headers }, timeout: timeoutMs, rejectUnauthorized: false },
            (res) => {
                res.resume();
                resolve((res.statusCode ?? 0) >= 200 && (res.statusCode ?? 0) < 400);
            },
        );
        req.on("timeout", () => req.destroy());
        req.on("error", () => resolve(false));
    });
}

/** One probe attempt: true = success. */
export async function runProbe(probe: Probe, t: ProbeTarget): Promise<boolean> {
    const timeoutMs = (probe.timeoutSeconds ?? 1) * 1000;
    if (probe.exec) {
        try {
            const argv = ["/usr/bin/nsenter", "-t", String(t.pid), "-m", "-u", "-n", "--", ...(probe.exec.command ?? [])];
            return (await spawnCollect(argv, { env: t.env, timeoutMs })).code === 0;
        } catch {
            return false;
        }
    }
    if (probe.tcpSocket) return tcpProbe(probe.tcpSocket.host || t.podIP, resolvePort(probe.tcpSocket.port, t.container), timeoutMs);
    if (probe.httpGet) return httpProbe(probe.httpGet, probe.httpGet.host || t.podIP, resolvePort(probe.httpGet.port, t.container), timeoutMs);
    throw new Error(`container ${t.container.name}: probe has no exec, tcpSocket or httpGet handler (grpc probes are not supported)`);
}

/** Periodic probing of one container with one probe; reports every change of the result. */
export class ProbeWorker {
    private timer?: NodeJS.Timeout;
    private stopped = false;
    private successes = 0;
    private failures = 0;
    result: boolean;

    constructor(
        readonly kind: ProbeKind,
        private readonly probe: Probe,
        private readonly target: ProbeTarget,
        private readonly onChange: (result: boolean) => void,
    ) {
        this.result = kind === "liveness";
        this.timer = setTimeout(() => void this.tick(), (probe.initialDelaySeconds ?? 0) * 1000);
    }

    private async tick(): Promise<void> {
        if (this.stopped) return;
        const ok = await runProbe(this.probe, this.target).catch(() => false);
        if (this.stopped) return;
        if (ok) {
            this.successes++;
            this.failures = 0;
        } else {
            this.failures++;
            this.successes = 0;
        }
        const flipTo = ok && this.successes >= (this.probe.successThreshold ?? 1) ? true : !ok && this.failures >= (this.probe.failureThreshold ?? 3) ? false : undefined;
        if (flipTo !== undefined && flipTo !== this.result) {
            this.result = flipTo;
            this.onChange(flipTo);
        }
        this.timer = setTimeout(() => void this.tick(), (this.probe.periodSeconds ?? 10) * 1000);
    }

    stop(): void {
        this.stopped = true;
        clearTimeout(this.timer);
    }
}
