// The description of a running local cluster, kept in .local/<id>/cluster.json so that every
// later command (status, down, hostExec, the pod tool, other engineers' tests) finds it.
import * as fs from "node:fs";
import * as path from "node:path";
import { DEFAULT_IP_FAMILY, perFamily, type IpFamily } from "./ipFamily";
import type { OvnKubernetesRelease } from "./labReleases";
import { stateDir } from "./names";

/** Systems whose hosts run on their own root: an overlay of a cached base (debianBase.ts, rootfs.ts). */
export type OwnRootOs = "debian13" | "debian-sid";
/** The system a host runs: debian12 shares this machine's root, the others have their own. */
export type HostOs = "debian12" | OwnRootOs;
export const HOST_OSES: readonly HostOs[] = ["debian12", "debian13", "debian-sid"];
export const DEFAULT_OS: HostOs = "debian12";

/** Whether hosts of `os` run on their own root (rather than sharing this machine's). */
export function hasOwnRoot(os: HostOs): os is OwnRootOs {
    return os !== "debian12";
}

export interface LocalHost {
    /** Hostname, Kubernetes node name and the suffix of its network namespace. */
    name: string;
    /** Underlay address on the host's eth0. */
    ip: string;
    /** Its IPv6 twin on eth0 (clusters whose ipFamily is dual or ipv6). */
    ip6?: string;
    /** The process that holds the host's network, mount and UTS namespaces (enter with nsenter -t). */
    holderPid: number;
    sshPort: number;
    /** `ssh-ed25519 AAAA…` */
    hostKeyLine: string;
    /** `SHA256:…` */
    hostKeyFingerprint: string;
    /** The host's network namespace (`ip netns exec <netns>` works from the root namespace). */
    netns: string;
    /** The root-side end of the host's underlay veth (on the bridge). */
    veth: string;
    /**
     * The host's directory on this machine: for debian12 the directories bind-mounted over its
     * OVS/OVN directories, for debian13 and debian-sid its overlay's upper and work layers. A running host's
     * files, as it sees them, are at /proc/<holderPid>/root/<path> (holder.ts inHostRoot).
     */
    dir: string;
    /** Absent in state written before hosts could run Debian 13: read it with hostOs(). */
    os?: HostOs;
    /** debian13, debian-sid: the cached base under the host's overlay. */
    base?: string;
    /** This machine's directory bind-mounted read-only at /opt/ovn-kubernetes-lab in the host (holder.ts LAB_DIR_MOUNT). */
    labDir?: string;
}

export function hostOs(host: LocalHost): HostOs {
    return host.os ?? DEFAULT_OS;
}

export interface LocalCluster {
    id: string;
    /** State directory: .local/<id> under the project root. */
    dir: string;
    bridge: string;
    /** Underlay CIDR. */
    subnet: string;
    prefixLen: number;
    /** The root namespace's address on the bridge: where tools on this machine reach the hosts from. */
    operatorIp: string;
    /** The outside world behind the gateway: a namespace whose address is every host's default gateway (ip6: in IPv6). */
    external: { ns: string; ip: string; ip6?: string };
    /** Absent in IPv4 clusters (read it with clusterIpFamily()). */
    ipFamily?: IpFamily;
    /** The IPv6 underlay beside the IPv4 one (dual, ipv6): its /64 and the root namespace's address on the bridge. */
    ipv6?: { subnet: string; prefixLen: number; operatorIp: string };
    hosts: LocalHost[];
    /** The user key that logs in as root on every host (OpenSSH format, ed25519). */
    privateKeyPath: string;
    publicKey: string;
    /** known_hosts with every host's pinned key, for `ssh -o UserKnownHostsFile=…`. */
    knownHostsPath: string;
    /** Clusters with Kubernetes (`up --kubernetes`): the ovn-kubernetes release in the lab directory. */
    ovnKubernetes?: {
        release: OvnKubernetesRelease;
        /** The release's image reference, as the program's manifests name it. */
        image: string;
        /** Whether the hosts run the kubelet (Debian 13 and unstable), or only register their Node (Debian 12). */
        kubelet: boolean;
    };
}

export function clusterIpFamily(cluster: Pick<LocalCluster, "ipFamily">): IpFamily {
    return cluster.ipFamily ?? DEFAULT_IP_FAMILY;
}

/** A host's IPv6 address; throws naming the cluster when it runs IPv4 only. */
export function hostIp6(cluster: LocalCluster, host: LocalHost): string {
    if (host.ip6 === undefined) throw new Error(`local cluster ${cluster.id} runs IPv4 only: host ${host.name} has no IPv6 address`);
    return host.ip6;
}

/** A host's addresses in the cluster's family order (primary first), as its kubelet's --node-ip. */
export function hostIps(cluster: LocalCluster, host: LocalHost): string[] {
    const family = clusterIpFamily(cluster);
    return family === "ipv4" ? [host.ip] : perFamily(family, host.ip, hostIp6(cluster, host));
}

/** The address the cluster's side reaches a host at (SSH, tunnel, API): IPv6 in an IPv6-only cluster. */
export function hostPrimaryIp(cluster: LocalCluster, host: LocalHost): string {
    return hostIps(cluster, host)[0];
}

export function clusterFile(id: string): string {
    return path.join(stateDir(id), "cluster.json");
}

export function saveCluster(cluster: LocalCluster): void {
    fs.writeFileSync(clusterFile(cluster.id), JSON.stringify(cluster, null, 2) + "\n", { mode: 0o600 });
}

/** Reads a cluster's description; throws a clear error when it is not up. */
export function loadCluster(id: string): LocalCluster {
    const file = clusterFile(id);
    if (!fs.existsSync(file)) throw new Error(`local cluster ${JSON.stringify(id)} is not up (no ${file})`);
    return JSON.parse(fs.readFileSync(file, "utf8")) as LocalCluster;
}

export function findHost(cluster: LocalCluster, name: string): LocalHost {
    const host = cluster.hosts.find((h) => h.name === name);
    if (!host) {
        throw new Error(
            `local cluster ${cluster.id} has no host ${JSON.stringify(name)} (hosts: ${cluster.hosts.map((h) => h.name).join(", ")})`,
        );
    }
    return host;
}
