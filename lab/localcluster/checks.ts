// What proves the overlay carries packets: a ping matrix between hosts, management ports and
// pods, a TCP exchange that reports the source address the server saw, and the gateway check
// (a pod reaches the external namespace, seen there as the gateway's physical IP after SNAT).
// The TCP peers are small Node.js programs, so nothing beyond Node and iproute2 is needed.
import { spawn } from "node:child_process";
import { hostArgv, enterableHost } from "./exec";
import type { ClusterModel } from "@ovn-kubernetes-as-code/cluster/model";
import { ping, type LocalPod, type PodRef } from "./pods";
import { run } from "./run";
import { clusterNames } from "./names";
import type { LocalCluster } from "./state";
import {
    awaitChassisCaughtUp,
    awaitTunnelMesh,
    formatCaughtUp,
    formatTunnelMesh,
    type CaughtUp,
    type TunnelMesh,
} from "./overlayReadiness";

/** Where a check runs: a host by name, a pod, or the external namespace. */
export type Place = { host: string } | { pod: PodRef } | { external: true };

export interface Target {
    label: string;
    ip: string;
}

export interface PingMatrix {
    sources: string[];
    targets: string[];
    /** ok[source][target] */
    ok: boolean[][];
    allOk: boolean;
}

/** argv run at `place`: in a host's namespaces, or in a pod's or the external network namespace with this machine's files. */
export function argvIn(cluster: LocalCluster, place: Place, argv: string[]): string[] {
    if ("host" in place) return hostArgv(enterableHost(cluster, place.host), argv);
    if ("pod" in place)
        return ["ip", "netns", "exec", clusterNames(cluster.id).podNetns(place.pod.node, place.pod.namespace, place.pod.pod), ...argv];
    return ["ip", "netns", "exec", cluster.external.ns, ...argv];
}

/**
 * Pings every target from every source. Pairs that fail are tried again for up to `settleSeconds`:
 * right after an apply, ovn-controller may still be binding ports and installing flows.
 */
export async function pingMatrix(
    cluster: LocalCluster,
    sources: Array<{ label: string; from: string | PodRef }>,
    targets: Target[],
    settleSeconds = 20,
): Promise<PingMatrix> {
    const deadline = Date.now() + settleSeconds * 1000;
    const ok: boolean[][] = [];
    for (const s of sources) ok.push(await Promise.all(targets.map((t) => ping(cluster, s.from, t.ip))));
    while (Date.now() < deadline && ok.some((row) => row.some((v) => !v))) {
        await new Promise((r) => setTimeout(r, 1000));
        for (const [i, s] of sources.entries())
            for (const [j, t] of targets.entries()) if (!ok[i][j]) ok[i][j] = await ping(cluster, s.from, t.ip);
    }
    return { sources: sources.map((s) => s.label), targets: targets.map((t) => t.label), ok, allOk: ok.every((row) => row.every(Boolean)) };
}

/** Every host pinging every node's management port; `settleSeconds` 0: the first round only. */
export function managementPortMatrix(cluster: LocalCluster, model: ClusterModel, settleSeconds?: number): Promise<PingMatrix> {
    return pingMatrix(
        cluster,
        cluster.hosts.map((h) => ({ label: h.name, from: h.name })),
        model.nodeNetworks.map((n) => ({ label: n.mgmtPort, ip: n.mgmt.ip })),
        settleSeconds,
    );
}

/** Every pod to every management port and every pod. */
export function podMatrix(
    cluster: LocalCluster,
    model: ClusterModel,
    pods: readonly LocalPod[],
    settleSeconds?: number,
): Promise<PingMatrix> {
    return pingMatrix(
        cluster,
        pods.map((p) => ({ label: p.ifaceId, from: p })),
        [...model.nodeNetworks.map((n) => ({ label: n.mgmtPort, ip: n.mgmt.ip })), ...pods.map((p) => ({ label: p.ifaceId, ip: p.ip }))],
        settleSeconds,
    );
}

export function formatMatrix(m: PingMatrix): string {
    const width = Math.max(6, ...m.sources.map((s) => s.length));
    const cols = m.targets.map((t) => Math.max(4, t.length));
    const head = ["from \\ to".padEnd(width), ...m.targets.map((t, i) => t.padEnd(cols[i]))].join("  ");
    const rows = m.sources.map((s, i) => [s.padEnd(width), ...m.ok[i].map((v, j) => (v ? "ok" : "FAIL").padEnd(cols[j]))].join("  "));
    return [head, ...rows].join("\n");
}

const SERVER = `const s=require("net").createServer(c=>c.end(c.remoteAddress));s.listen(+process.argv[1],process.argv[3],()=>console.log("ready"));setTimeout(()=>process.exit(0),+process.argv[2])`;
/** Where the server listens: every IPv4 address, or every address of both families when it is reached over IPv6. */
const anyAddressFor = (ip: string) => (ip.includes(":") ? "::" : "0.0.0.0");
const CLIENT = `const c=require("net").connect(+process.argv[2],process.argv[1]);let d="";c.on("data",x=>d+=x);c.on("end",()=>{console.log(d);process.exit(0)});c.on("error",e=>{console.error(e.message);process.exit(1)});setTimeout(()=>{console.error("timed out");process.exit(1)},+process.argv[3])`;

/**
 * Connects from `client` to `serverIp:port` served at `server` (or to `via`, a Service's address
 * and port that lead there); the server answers with the source address it saw. Tries `attempts`
 * times: the first overlay packet to a new peer can be lost.
 */
export async function tcpExchange(
    cluster: LocalCluster,
    server: Place,
    serverIp: string,
    client: Place,
    port = 18080,
    attempts = 4,
    via?: { ip: string; port: number },
): Promise<{ ok: boolean; seenSource?: string; error?: string }> {
    const [cmd, ...args] = argvIn(cluster, server, [process.execPath, "-e", SERVER, String(port), "20000", anyAddressFor(serverIp)]);
    const child = spawn(cmd, args, { stdio: ["ignore", "pipe", "pipe"] });
    try {
        await new Promise<void>((resolve, reject) => {
            let out = "";
            child.stdout.on("data", (d) => ((out += d), out.includes("ready") && resolve()));
            child.on("exit", (code) => reject(new Error(`TCP server exited (${code}) before listening`)));
            setTimeout(() => reject(new Error("TCP server did not start")), 10000).unref();
        });
        const r = await tcpAnswer(cluster, client, via?.ip ?? serverIp, via?.port ?? port, attempts);
        return r.ok ? { ok: true, seenSource: r.answer!.replace(/^::ffff:/, "") } : { ok: false, error: r.error };
    } finally {
        // Gone before returning: the next exchange listens on the same port.
        if (child.exitCode === null && child.signalCode === null) {
            const exited = new Promise((resolve) => child.once("exit", resolve));
            child.kill("SIGKILL");
            await exited;
        }
    }
}

/** What a TCP server at `ip:port` sends to `client` before it closes; tries `attempts` times. */
export async function tcpAnswer(
    cluster: LocalCluster,
    client: Place,
    ip: string,
    port: number,
    attempts = 4,
): Promise<{ ok: boolean; answer?: string; error?: string }> {
    let last = "";
    for (let attempt = 0; attempt < attempts; attempt++) {
        const r = await run(argvIn(cluster, client, [process.execPath, "-e", CLIENT, ip, String(port), "3000"]));
        if (r.code === 0) return { ok: true, answer: r.stdout.trim() };
        last = r.stderr.trim();
    }
    return { ok: false, error: last };
}

export interface OverlayReport {
    /** Waited for before the pings, which start once both hold or their waits are over (./overlayReadiness). */
    caughtUp: CaughtUp;
    tunnels: TunnelMesh;
    matrix: PingMatrix;
    /** pod → pod on another node over TCP: the server sees the client pod's own address. */
    podTcp: { ok: boolean; seenSource?: string; expected: string; error?: string };
    /** pod → external namespace through the gateway: the source is translated to the gateway's physical IP. */
    gateway: { ok: boolean; seenSource?: string; expected: string; error?: string };
    /** pod → a ClusterIP Service backed by the other pod, when one was given: the backend sees the client pod. */
    service?: { ok: boolean; seenSource?: string; expected: string; error?: string };
    allOk: boolean;
}

/** The port the TCP checks serve on: a Service checked with them maps port and targetPort to it. */
export const CHECK_PORT = 18080;

/**
 * Where pod traffic to the outside is SNATed: Pulumi mode's first gateway router, or in ovnkube
 * mode the gateway router of the pod's own node (every node has one).
 */
function snatSourceOf(model: ClusterModel, node: string): string {
    if (model.writer === "pulumi") return model.gateways[0].physical.ip;
    const planned = model.kube.nodes.find((n) => n.name === node);
    if (!planned) throw new Error(`node ${node} has no ovnkube plan in this stack`);
    return planned.gatewayIps[0];
}

/**
 * The demonstration's checks for two pods on different nodes: every host and pod pings every
 * management port and pod; TCP between the pods; TCP from the first pod to the outside world;
 * and, given the ClusterIP of a Service in front of the second pod (port CHECK_PORT), TCP from the
 * first pod to the Service.
 */
export async function overlayReport(
    cluster: LocalCluster,
    model: ClusterModel,
    pods: Array<PodRef & { ip: string; ifaceId?: string }>,
    serviceIp?: string,
): Promise<OverlayReport> {
    const label = (p: PodRef & { ifaceId?: string }) => p.ifaceId ?? `${p.namespace}_${p.pod}`;
    const targets: Target[] = [
        ...model.nodeNetworks.map((n) => ({ label: n.mgmtPort, ip: n.mgmt.ip })),
        ...pods.map((p) => ({ label: label(p), ip: p.ip })),
    ];
    const sources = [
        ...cluster.hosts.map((h) => ({ label: h.name, from: h.name as string | PodRef })),
        ...pods.map((p) => ({ label: label(p), from: p as PodRef })),
    ];
    const caughtUp = await awaitChassisCaughtUp(cluster, model);
    const tunnels = await awaitTunnelMesh(cluster, model);
    // Pairs that fail are retried for up to 45 s: with three centrals on a busy machine one pair of
    // chassis was seen to carry nothing for about 21 s after an apply, tunnels in place.
    const matrix = await pingMatrix(cluster, sources, targets, 45);
    const [a, b] = pods;
    const podTcp = { ...(await tcpExchange(cluster, { pod: b }, b.ip, { pod: a }, CHECK_PORT)), expected: a.ip };
    const gateway = {
        ...(await tcpExchange(cluster, { external: true }, cluster.external.ip, { pod: a }, CHECK_PORT)),
        expected: snatSourceOf(model, a.node),
    };
    const service =
        serviceIp === undefined
            ? undefined
            : { ...(await tcpExchange(cluster, { pod: b }, serviceIp, { pod: a }, CHECK_PORT)), expected: a.ip };
    const good = exchangeOk;
    return {
        caughtUp,
        tunnels,
        matrix,
        podTcp,
        gateway,
        service,
        allOk: caughtUp.ok && tunnels.complete && matrix.allOk && good(podTcp) && good(gateway) && (service === undefined || good(service)),
    };
}

/** A TCP exchange and the source its server should have seen. */
export type Exchange = OverlayReport["gateway"];

/** Whether the exchange worked and its server saw the expected source. */
export const exchangeOk = (x: Exchange) => x.ok && x.seenSource === x.expected;

/** A report's matrix, then one line per exchange (one not run, undefined, is left out). */
export function formatChecks(matrix: PingMatrix, exchanges: ReadonlyArray<[string, Exchange | undefined]>): string[] {
    const line = (what: string, x: Exchange) =>
        `${what}: ${exchangeOk(x) ? "ok" : "FAIL"} (source seen ${x.seenSource ?? "none"}, expected ${x.expected}${x.error ? `; ${x.error}` : ""})`;
    return [formatMatrix(matrix), "", ...exchanges.flatMap(([what, x]) => (x ? [line(what, x)] : []))];
}

export function formatReport(r: OverlayReport): string {
    return [
        formatCaughtUp(r.caughtUp),
        formatTunnelMesh(r.tunnels),
        ...formatChecks(r.matrix, [
            ["TCP pod → pod on another node", r.podTcp],
            ["TCP pod → ClusterIP Service backed by the pod on another node", r.service],
            ["TCP pod → outside through the gateway (SNAT)", r.gateway],
        ]),
    ].join("\n");
}
