// What the overlay checks wait for before the first ping, as the chassis themselves report it:
// - every chassis has caught up with Northbound: `ovn-nbctl --wait=hv sync` returns once each
//   ovn-controller reports the current NB applied (NB_Global.hv_cfg), so the pings start when OVN
//   says the flows are in, not after a guess (with OVN from the image, the pod's ovn-nbctl);
// - the tunnel mesh: ovn-controller gives br-int one tunnel port per other chassis it finds in the
//   Southbound (options:remote_ip, of the encap type); a pair without one carries nothing.
// When either stays incomplete the report says which chassis and what its ovn-controller reports,
// instead of only a failed ping.
import { OVN_RUN_DIR, type ClusterModel } from "@ovn-kubernetes-as-code/cluster/model";
import { hostExec } from "./exec";
import type { LocalCluster } from "./state";

export interface ChassisTunnels {
    host: string;
    /** Tunnel IPs of the other chassis with no tunnel port on this one. */
    missing: string[];
    /** ovn-controller's `connection-status` when something is missing. */
    controller?: string;
}

export interface TunnelMesh {
    chassis: ChassisTunnels[];
    complete: boolean;
}

/** remote_ip of every tunnel port of `encapType` in `ovs-vsctl --format=json` output. */
export function remoteIps(json: string): string[] {
    const table = JSON.parse(json) as { data: unknown[][] };
    return table.data.flatMap((row) => {
        const cell = row[0];
        if (!Array.isArray(cell) || cell[0] !== "map") return [];
        return (cell[1] as [string, string][]).filter(([k]) => k === "remote_ip").map(([, v]) => v);
    });
}

async function tunnelsOf(cluster: LocalCluster, host: string, encapType: string): Promise<string[]> {
    const r = await hostExec(cluster, host, [
        "ovs-vsctl",
        "--timeout=10",
        "--format=json",
        "--columns=options",
        "find",
        "Interface",
        `type=${encapType}`,
    ]);
    return r.code === 0 ? remoteIps(r.stdout) : [];
}

/** Every chassis's missing peers, read once. */
export async function readTunnelMesh(cluster: LocalCluster, model: ClusterModel): Promise<TunnelMesh> {
    const chassis = model.hosts.filter((h) => h.chassis !== undefined);
    const views = await Promise.all(
        chassis.map(async (h) => {
            const have = new Set(await tunnelsOf(cluster, h.name, h.chassis!.encapType));
            const missing = chassis.filter((p) => p !== h && !have.has(p.chassis!.encapIp)).map((p) => p.chassis!.encapIp);
            if (missing.length === 0) return { host: h.name, missing };
            const status = await hostExec(cluster, h.name, ["ovn-appctl", "-t", "ovn-controller", "connection-status"]);
            return { host: h.name, missing, controller: (status.stdout || status.stderr).trim() };
        }),
    );
    return { chassis: views, complete: views.every((v) => v.missing.length === 0) };
}

/** Waits (bounded) for every chassis to hold a tunnel to every other; returns the last reading. */
export async function awaitTunnelMesh(cluster: LocalCluster, model: ClusterModel, seconds = 60): Promise<TunnelMesh> {
    const deadline = Date.now() + seconds * 1000;
    let mesh = await readTunnelMesh(cluster, model);
    while (!mesh.complete && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 500));
        mesh = await readTunnelMesh(cluster, model);
    }
    return mesh;
}

export function formatTunnelMesh(mesh: TunnelMesh): string {
    if (mesh.complete) return "tunnels: every chassis has a tunnel to every other";
    const lines = mesh.chassis
        .filter((c) => c.missing.length > 0)
        .map((c) => `  ${c.host} has no tunnel to ${c.missing.join(", ")} (ovn-controller: ${c.controller ?? "?"})`);
    return ["tunnels: INCOMPLETE", ...lines].join("\n");
}

export interface CaughtUp {
    ok: boolean;
    seconds: number;
    /** Why not, when not. */
    detail?: string;
}

/**
 * Waits (bounded) until every chassis has applied the current Northbound: NB_Global.hv_cfg, asked on
 * a central, or with interconnect on every zone (each zone's chassis follow their own NB).
 */
export async function awaitChassisCaughtUp(cluster: LocalCluster, model: ClusterModel, seconds = 60): Promise<CaughtUp> {
    const zones = model.hosts.filter((h) => h.zone).map((h) => h.name);
    const asked = zones.length > 0 ? zones : [model.hosts.find((h) => h.isCentral)!.name];
    const started = Date.now();
    // A follower forwards the write (nb_cfg) to the raft leader; the local socket needs no SSL material.
    const sync = ["ovn-nbctl", "--no-leader-only", `--timeout=${seconds}`, "--wait=hv", "sync"];
    const results = await Promise.all(
        asked.map(async (host) => hostExec(cluster, host, model.ovnSource === "image" ? await inNbContainer(cluster, host, sync) : sync)),
    );
    const took = (Date.now() - started) / 1000;
    const failed = results.flatMap((r, i) => (r.code === 0 ? [] : [`${asked[i]}: ${(r.stderr || r.stdout).trim()}`]));
    return failed.length === 0 ? { ok: true, seconds: took } : { ok: false, seconds: took, detail: failed.join("; ") };
}

/**
 * With OVN from the image the host has no ovn-nbctl: the command runs with the nb-ovsdb
 * container's files (its mount namespace, as `kubectl exec` would), found by the pid file it
 * keeps in the host's OVN run directory (the pod shares the host's PID namespace).
 */
async function inNbContainer(cluster: LocalCluster, host: string, argv: readonly string[]): Promise<string[]> {
    const pid = (await hostExec(cluster, host, ["cat", `${OVN_RUN_DIR}/ovnnb_db.pid`])).stdout.trim();
    if (!/^\d+$/.test(pid)) throw new Error(`${host}: no nb-ovsdb pid in ${OVN_RUN_DIR}/ovnnb_db.pid`);
    return ["nsenter", "--target", pid, "--mount", "--", ...argv];
}

export function formatCaughtUp(c: CaughtUp): string {
    return c.ok
        ? `chassis caught up with Northbound in ${c.seconds.toFixed(1)} s`
        : `chassis caught up with Northbound: NOT within ${c.seconds.toFixed(0)} s (${c.detail})`;
}
