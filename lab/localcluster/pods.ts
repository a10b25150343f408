// Pods on a local cluster, wired the way the ovn-kubernetes CNI's ADD and DEL do it: a network
// namespace for the pod, a veth whose pod end is eth0 (MAC, address, MTU, default route via the
// node switch's gateway) and whose host end is a port of the host's br-int carrying
// external_ids:iface-id=<namespace>_<pod>, attached_mac and ip_address. The logical switch port
// of the same name in the Northbound database is the caller's business.
import { createHash } from "node:crypto";
import { containsIp, isIpv4, networkOf, PATTERNS } from "@ovn-kubernetes-as-code/cluster/values";
import { enterableHost, hostArgv, hostExec } from "./exec";
import { txChecksumOff } from "./links";
import { clusterNames } from "./names";
import { deleteNetns, killNamespaceProcesses, netnsInode } from "./namespaces";
import { RunOptions, RunResult, check, run } from "./run";
import { LocalCluster, findHost } from "./state";
import { isCanonicalIpv6 } from "./ipFamily";

export interface PodNetwork {
    ip: string;
    mac: string;
    gatewayIp: string;
    prefixLen: number;
    mtu: number;
}

export interface PodRef {
    node: string;
    namespace: string;
    pod: string;
}

export interface LocalPod extends PodRef, PodNetwork {
    /** The pod's network namespace in the root namespace (`ip netns exec <netns>`). */
    netns: string;
    /** The host end of the veth, a port of br-int inside the host. */
    hostIface: string;
    /** The logical switch port name: <namespace>_<pod>. */
    ifaceId: string;
}

function checkRef(ref: PodRef): void {
    if (!PATTERNS.nodeName.re.test(ref.namespace))
        throw new Error(`invalid namespace ${JSON.stringify(ref.namespace)}: use a DNS-1123 label`);
    if (!PATTERNS.dnsSubdomain.re.test(ref.pod))
        throw new Error(`invalid pod name ${JSON.stringify(ref.pod)}: use lower-case letters, digits, '-' and '.'`);
}

function checkNetwork(n: PodNetwork): void {
    const where = `pod network`;
    if (!isIpv4(n.ip)) throw new Error(`${where}: ip ${JSON.stringify(n.ip)} is not an IPv4 address`);
    if (!isIpv4(n.gatewayIp)) throw new Error(`${where}: gatewayIp ${JSON.stringify(n.gatewayIp)} is not an IPv4 address`);
    if (!Number.isInteger(n.prefixLen) || n.prefixLen < 1 || n.prefixLen > 30)
        throw new Error(`${where}: prefixLen must be 1..30, not ${n.prefixLen}`);
    const subnet = networkOf(`${n.ip}/${n.prefixLen}`);
    if (!containsIp(subnet, n.gatewayIp)) throw new Error(`${where}: gateway ${n.gatewayIp} is outside ${subnet.text}`);
    // A multicast MAC (odd first byte) would not be learned by any switch.
    if (!PATTERNS.mac.re.test(n.mac) || n.mac !== n.mac.toLowerCase() || parseInt(n.mac.slice(0, 2), 16) % 2 === 1)
        throw new Error(`${where}: mac ${JSON.stringify(n.mac)} is not a lower-case unicast MAC`);
    if (!Number.isInteger(n.mtu) || n.mtu < 576 || n.mtu > 9000) throw new Error(`${where}: mtu must be 576..9000, not ${n.mtu}`);
}

/** The host end's name: derived from the port name so DEL finds it; 15 characters at most. */
export function podHostIface(namespace: string, pod: string): string {
    return `v${createHash("sha256").update(`${namespace}_${pod}`).digest("hex").slice(0, 14)}`;
}

function podNetns(cluster: LocalCluster, ref: PodRef): string {
    return clusterNames(cluster.id).podNetns(ref.node, ref.namespace, ref.pod);
}

/** CNI ADD: creates the pod's namespace and veth and plugs the host end into the host's br-int. */
export async function addPod(cluster: LocalCluster, node: string, namespace: string, pod: string, network: PodNetwork): Promise<LocalPod> {
    const ref = { node, namespace, pod };
    checkRef(ref);
    checkNetwork(network);
    const host = enterableHost(cluster, node);
    const netns = podNetns(cluster, ref);
    if (netnsInode(netns) !== undefined) throw new Error(`pod ${namespace}/${pod} already exists on ${node} (${netns})`);
    const hostIface = podHostIface(namespace, pod);
    const ifaceId = `${namespace}_${pod}`;
    const { ip, mac, gatewayIp, prefixLen, mtu } = network;

    await check(["ip", "netns", "add", netns]);
    try {
        // Created from within the host's network namespace so the host end never appears in the
        // root namespace; only -n is entered, so `netns <name>` still resolves in the root's /run/netns.
        await check([
            "nsenter",
            "-t",
            String(host.holderPid),
            "-n",
            "--",
            "ip",
            "link",
            "add",
            hostIface,
            "mtu",
            String(mtu),
            "type",
            "veth",
            "peer",
            "name",
            "eth0",
            "netns",
            netns,
        ]);
        await check(["ip", "-n", netns, "-batch", "-"], {
            input:
                [
                    `link set lo up`,
                    `link set eth0 address ${mac} mtu ${mtu}`,
                    `address add ${ip}/${prefixLen} dev eth0`,
                    `link set eth0 up`,
                    `route add default via ${gatewayIp} dev eth0`,
                ].join("\n") + "\n",
        });
        await txChecksumOff("eth0", netns);
        await check(hostArgv(host, ["ip", "link", "set", hostIface, "up"]));
        await check(hostArgv(host, ["ethtool", "-K", hostIface, "tx", "off"]));
        await check(
            hostArgv(host, [
                "ovs-vsctl",
                "--timeout=10",
                "--may-exist",
                "add-port",
                "br-int",
                hostIface,
                "--",
                "set",
                "interface",
                hostIface,
                `external_ids:attached_mac=${mac}`,
                `external_ids:iface-id=${ifaceId}`,
                `external_ids:ip_address=${ip}/${prefixLen}`,
            ]),
        );
    } catch (e) {
        await removePod(cluster, node, namespace, pod).catch(() => undefined);
        throw e;
    }
    return { ...ref, ...network, netns, hostIface, ifaceId };
}

/** CNI DEL: removes the br-int port and the pod's namespace (with its veth). Safe to run twice. */
export async function removePod(cluster: LocalCluster, node: string, namespace: string, pod: string): Promise<void> {
    const ref = { node, namespace, pod };
    checkRef(ref);
    findHost(cluster, node);
    const netns = podNetns(cluster, ref);
    const hostIface = podHostIface(namespace, pod);
    // If the host or its OVS is gone there is no port left to delete.
    const r = await hostExec(cluster, node, ["ovs-vsctl", "--if-exists", "--timeout=5", "del-port", "br-int", hostIface]).catch(
        () => undefined,
    );
    if (r && r.code !== 0 && !/database connection failed|No such file/.test(r.stderr)) {
        throw new Error(`removing port ${hostIface} of ${namespace}/${pod} from br-int on ${node}: ${r.stderr.trim()}`);
    }
    await killNamespaceProcesses([netns]);
    await deleteNetns(netns);
}

/** Runs argv inside a pod's network namespace. */
export async function podExec(cluster: LocalCluster, ref: PodRef, argv: readonly string[], opts?: RunOptions): Promise<RunResult> {
    checkRef(ref);
    const netns = podNetns(cluster, ref);
    if (netnsInode(netns) === undefined) throw new Error(`pod ${ref.namespace}/${ref.pod} does not exist on ${ref.node}`);
    return run(["ip", "netns", "exec", netns, ...argv], opts);
}

/**
 * Pings `ip` from a host (by name) or a pod; true when at least one of `count` echoes is
 * answered. Several tries because the first overlay packet to a new peer can be dropped.
 */
export async function ping(cluster: LocalCluster, from: string | PodRef, ip: string, count = 3): Promise<boolean> {
    // iputils' ping picks the family from the address: ping and ping6 are one check.
    if (!isIpv4(ip) && !isCanonicalIpv6(ip)) throw new Error(`ping: ${JSON.stringify(ip)} is not an IPv4 or IPv6 address`);
    const argv = ["ping", "-n", "-q", "-c", String(count), "-i", "0.2", "-W", "1", ip];
    const r = typeof from === "string" ? await hostExec(cluster, from, argv) : await podExec(cluster, from, argv);
    return r.code === 0;
}
