// What is running of a local cluster, as far as can be seen from the root namespace.
import * as fs from "node:fs";
import * as net from "node:net";
import { listLinks } from "./links";
import { checkId, clusterNames } from "./names";
import { isInNetns, listNetns } from "./namespaces";
import { sshdPid } from "./sshd";
import { clusterFile, hostOs, loadCluster, type HostOs } from "./state";

export interface HostStatus {
    name: string;
    ip: string;
    os: HostOs;
    holderPid: number;
    holderAlive: boolean;
    sshdPid?: number;
    /** sshd answered with an SSH banner on <ip>:22 from the root namespace. */
    reachable: boolean;
}

export interface ClusterStatus {
    id: string;
    /** The state file exists. */
    up: boolean;
    subnet?: string;
    bridge: string;
    bridgePresent: boolean;
    external?: { ns: string; ip: string; present: boolean };
    hosts: HostStatus[];
    /** Namespaces named after this cluster (hosts, external, pods), also when no state file exists. */
    netns: string[];
    /** Every host alive and reachable. */
    healthy: boolean;
}

/** Connects to ip:port and waits for the SSH identification line. */
export function sshBanner(ip: string, port: number, timeoutMs = 5000): Promise<boolean> {
    return new Promise((resolve) => {
        const socket = net.connect({ host: ip, port });
        const finish = (ok: boolean) => {
            socket.destroy();
            resolve(ok);
        };
        socket.setTimeout(timeoutMs, () => finish(false));
        socket.on("error", () => finish(false));
        socket.once("data", (d) => finish(d.toString().startsWith("SSH-")));
    });
}

export async function status(id: string): Promise<ClusterStatus> {
    const names = clusterNames(checkId(id));
    const netns = listNetns(names.prefix);
    const bridgePresent = (await listLinks(names.bridge, names.prefix)).includes(names.bridge);
    if (!fs.existsSync(clusterFile(id))) {
        return { id, up: false, bridge: names.bridge, bridgePresent, hosts: [], netns, healthy: false };
    }
    const cluster = loadCluster(id);
    const hosts = await Promise.all(
        cluster.hosts.map(async (h): Promise<HostStatus> => {
            const holderAlive = isInNetns(h.holderPid, h.netns);
            const pid = holderAlive ? sshdPid(h.holderPid) : undefined;
            const reachable = holderAlive && (await sshBanner(h.ip, h.sshPort));
            return { name: h.name, ip: h.ip, os: hostOs(h), holderPid: h.holderPid, holderAlive, sshdPid: pid, reachable };
        }),
    );
    return {
        id,
        up: true,
        subnet: cluster.subnet,
        bridge: cluster.bridge,
        bridgePresent,
        external: { ...cluster.external, present: netns.includes(cluster.external.ns) },
        hosts,
        netns,
        healthy: bridgePresent && hosts.length > 0 && hosts.every((h) => h.holderAlive && h.reachable),
    };
}
