// Bringing a local cluster up: a bridge standing for the underlay switch, an "external"
// namespace standing for the router to the outside world, and N bare hosts, each a set of
// namespaces with its own /run, OVS/OVN directories (or whole root), hostname, eth0 and sshd.
import * as fs from "node:fs";
import * as path from "node:path";
import { cidrsOverlap } from "@ovn-kubernetes-as-code/cluster/values";
import { AddressPlan, AddressPlan6, defaultSubnet, planAddresses, planAddresses6 } from "./addressing";
import { DEBIAN_BASES, ensureDebianBase } from "./debianBase";
import { down } from "./down";
import { HolderRoot, checkPrivateDirsExist, etcHosts, prepareHostDirs, startHolder } from "./holder";
import { fingerprint, generateKey, knownHosts, publicKeyLine } from "./keys";
import { listLinks, rootRouteDestinations, txChecksumOff } from "./links";
import { DEFAULT_HOSTS, DEFAULT_ID, MAX_HOSTS, checkId, clusterNames, ClusterNames, hostName, stateDir } from "./names";
import { listNetns } from "./namespaces";
import { createLayers, ownRootLayout, upperFile, writeHostIdentity } from "./rootfs";
import { check } from "./run";
import { OWN_ROOT_SSHD_FILES, SshdFiles, prepareSshd, sharedRootSshdFiles, startSshd } from "./sshd";
import { DEFAULT_OS, HOST_OSES, HostOs, LocalCluster, LocalHost, clusterFile, hasOwnRoot, saveCluster } from "./state";
import { requireTools } from "./tools";
import { DEFAULT_IP_FAMILY, IpFamily, checkIpFamily, hasIpv6 } from "./ipFamily";

export interface UpOptions {
    /** Cluster id (default "local"): names, addresses and the state directory derive from it. */
    id?: string;
    /** Number of hosts (default 3). */
    hosts?: number;
    /** Underlay CIDR (default 172.31.<n>.0/24 with n derived from the id). */
    subnet?: string;
    /**
     * What every host runs (default debian12): debian12 shares this machine's root and installed
     * packages; debian13 and debian-sid run on their own overlay of the cached Debian 13 or
     * Debian unstable base, built on first use (1-2 min), and get OVS/OVN only from the program's
     * package step.
     */
    os?: HostOs;
    /** A directory of this machine that every host sees read-only at /opt/ovn-kubernetes-lab. */
    labDir?: string;
    /** ipv4 (default), dual or ipv6: dual and ipv6 add the IPv6 underlay (addressing.ts planAddresses6) beside the IPv4 one. */
    ipFamily?: IpFamily;
}

/** The underlay in the families the cluster runs: IPv4 always (the operator's way in), IPv6 with dual and ipv6. */
interface UnderlayPlan {
    v4: AddressPlan;
    v6?: AddressPlan6;
}

/**
 * `ip -batch` lines giving `dev` its IPv6 address. nodad: the address is usable at once, as the
 * IPv4 one is (sshd binds it right away), and nothing else on the lab's bridge may claim it.
 */
const ipv6AddressLines = (v6: AddressPlan6 | undefined, ip: (p: AddressPlan6) => string, dev: string): string[] =>
    v6 ? [`address add ${ip(v6)}/${v6.prefixLen} dev ${dev} nodad`] : [];

const TOOLS = ["ip", "unshare", "nsenter", "ethtool", "ssh-keygen"];

/**
 * Kernel settings of a host's network namespace, by system: what the lab's userspace datapath
 * needs there (localcluster/README.md, "Debian unstable hosts"). With arp_ignore=1 the host answers
 * ARP only on the interface that holds the address asked for: OVS reads the host end of a pod's
 * veth through a packet socket while the kernel sees the same frames, and would otherwise answer
 * the pod's ARP for the management port's address with the veth's MAC.
 */
const HOST_SYSCTLS: Partial<Record<HostOs, readonly string[]>> = {
    "debian-sid": ["net.ipv4.conf.all.arp_ignore=1"],
};

async function preflight(id: string, names: ClusterNames, plan: AddressPlan, os: HostOs): Promise<void> {
    if (process.getuid?.() !== 0) throw new Error("a local cluster needs root (network namespaces, mounts)");
    // Debian 12 hosts run this machine's sshd; own-root hosts their own, and need pivot_root.
    const tools = [...TOOLS, ...(hasOwnRoot(os) ? ["pivot_root"] : ["/usr/sbin/sshd"]), ...(HOST_SYSCTLS[os] ? ["sysctl"] : [])];
    await requireTools(tools, "apt-get install -y iproute2 util-linux ethtool openssh-server procps");
    if (!hasOwnRoot(os)) checkPrivateDirsExist();
    const leftovers = [...listNetns(names.prefix), ...(await listLinks(names.bridge, names.prefix))];
    if (fs.existsSync(clusterFile(id)) || leftovers.length > 0) {
        throw new Error(
            `local cluster ${JSON.stringify(id)} already exists${leftovers.length ? ` (${leftovers.join(", ")})` : ""}: run down first`,
        );
    }
    for (const dst of await rootRouteDestinations()) {
        if (cidrsOverlap(dst, plan.subnet)) {
            throw new Error(`underlay subnet ${plan.subnet} overlaps the route to ${dst} on this machine: choose another subnet`);
        }
    }
}

async function createExternal(names: ClusterNames, { v4: plan, v6 }: UnderlayPlan): Promise<void> {
    const ns = names.externalNetns;
    await check(["ip", "netns", "add", ns]);
    await check(["ip", "link", "add", names.externalVeth, "type", "veth", "peer", "name", "eth0", "netns", ns]);
    await check(["ip", "link", "set", names.externalVeth, "master", names.bridge, "up"]);
    await txChecksumOff(names.externalVeth);
    await check(["ip", "-n", ns, "-batch", "-"], {
        input:
            [
                `link set lo up`,
                `address add ${plan.external}/${plan.prefixLen} dev eth0`,
                ...ipv6AddressLines(v6, (p) => p.external, "eth0"),
                `link set eth0 up`,
            ].join("\n") + "\n",
    });
    // Its replies cross a userspace OVS bridge on the gateway host: they must carry finished checksums.
    await txChecksumOff("eth0", ns);
}

/** What a host's holder and sshd need: its root, where sshd's files are seen, and how to write them beforehand. */
interface HostRootPlan {
    holderRoot: HolderRoot;
    sshd: SshdFiles;
    /** Maps a path as the host will see it to where this machine writes it before the host starts. */
    onMachine: (file: string) => string;
}

/** A host on this machine's root without `base`; on its own overlay of `base` with one. */
function planHostRoot(
    cluster: LocalCluster,
    host: { name: string; dir: string; hostsFile: string },
    base: string | undefined,
): HostRootPlan {
    if (base === undefined) {
        prepareHostDirs(host.dir, host.name, host.hostsFile);
        const onMachine = (file: string) => {
            fs.mkdirSync(path.dirname(file), { recursive: true });
            return file;
        };
        return {
            holderRoot: { kind: "shared", hostDir: host.dir },
            sshd: sharedRootSshdFiles(host.dir, path.join(cluster.dir, "authorized_keys")),
            onMachine,
        };
    }
    const root = ownRootLayout(host.dir, base);
    createLayers(root);
    writeHostIdentity(root, { hostname: host.name, hostsFile: host.hostsFile, authorizedKey: cluster.publicKey });
    return { holderRoot: { kind: "own", root }, sshd: OWN_ROOT_SSHD_FILES, onMachine: (file) => upperFile(root, file) };
}

interface HostSpec {
    os: HostOs;
    /** The cached base, for own-root hosts only. */
    base?: string;
    labDir?: string;
}

async function createHost(
    cluster: LocalCluster,
    names: ClusterNames,
    underlay: UnderlayPlan,
    index: number,
    spec: HostSpec,
): Promise<LocalHost> {
    const { v4: plan, v6 } = underlay;
    const name = hostName(index);
    const ip = plan.hosts[index];
    const ip6 = v6?.hosts[index];
    const netns = names.hostNetns(name);
    const veth = names.hostVeth(index);
    const dir = path.join(cluster.dir, "hosts", name);

    await check(["ip", "netns", "add", netns]);
    await check(["ip", "link", "add", veth, "type", "veth", "peer", "name", "eth0", "netns", netns]);
    await check(["ip", "link", "set", veth, "master", cluster.bridge, "up"]);
    await txChecksumOff(veth);
    await check(["ip", "-n", netns, "-batch", "-"], {
        input:
            [
                `link set lo up`,
                `address add ${ip}/${plan.prefixLen} dev eth0`,
                ...ipv6AddressLines(v6, (p) => p.hosts[index], "eth0"),
                `link set eth0 up`,
                `route add default via ${plan.external}`,
                ...(v6 ? [`route add default via ${v6.external}`] : []),
            ].join("\n") + "\n",
    });
    // The host's NIC too: whatever the program under test moves onto a userspace bridge then
    // already carries finished checksums.
    await txChecksumOff("eth0", netns);
    for (const setting of HOST_SYSCTLS[spec.os] ?? []) await check(["ip", "netns", "exec", netns, "sysctl", "-q", "-w", setting]);

    const hostsFile = etcHosts(name, [
        ...plan.hosts.map((ip, i) => ({ name: hostName(i), ip })),
        ...(v6?.hosts ?? []).map((ip, i) => ({ name: hostName(i), ip })),
    ]);
    const root = planHostRoot(cluster, { name, dir, hostsFile }, spec.base);
    // Before the holder: a host with its own root must find its files in place when the overlay is mounted.
    const hostKeyLine = await prepareSshd(root.sshd, ip6 ? [ip, ip6] : [ip], name, root.onMachine);
    const holderPid = await startHolder(netns, name, root.holderRoot, spec.labDir);
    await startSshd(holderPid, root.sshd, name);

    return {
        name,
        ip,
        ...(ip6 && { ip6 }),
        holderPid,
        sshPort: 22,
        hostKeyLine,
        hostKeyFingerprint: fingerprint(hostKeyLine),
        netns,
        veth,
        dir,
        os: spec.os,
        ...(spec.base && { base: spec.base }),
        ...(spec.labDir && { labDir: spec.labDir }),
    };
}

function checkOs(os: string): HostOs {
    if (!(HOST_OSES as readonly string[]).includes(os))
        throw new Error(`unknown host os ${JSON.stringify(os)}: use ${HOST_OSES.join(" or ")}`);
    return os as HostOs;
}

/** The lab directory as an absolute path, checked to be a directory. */
function checkLabDir(dir: string): string {
    const abs = path.resolve(dir);
    if (!fs.statSync(abs, { throwIfNoEntry: false })?.isDirectory())
        throw new Error(`labDir ${abs} is not a directory: create it or pass another`);
    return abs;
}

/** Creates a local cluster of bare hosts (no OVS/OVN daemon running) reachable over SSH; own-root hosts have no OVS/OVN installed either. */
export async function up(opts: UpOptions = {}): Promise<LocalCluster> {
    const id = checkId(opts.id ?? DEFAULT_ID);
    const count = opts.hosts ?? DEFAULT_HOSTS;
    if (!Number.isInteger(count) || count < 1 || count > MAX_HOSTS) {
        throw new Error(`hosts must be an integer from 1 to ${MAX_HOSTS}, not ${count}`);
    }
    const os = checkOs(opts.os ?? DEFAULT_OS);
    const labDir = opts.labDir === undefined ? undefined : checkLabDir(opts.labDir);
    const plan = planAddresses(opts.subnet ?? defaultSubnet(id), count);
    const ipFamily = checkIpFamily(opts.ipFamily ?? DEFAULT_IP_FAMILY);
    const underlay: UnderlayPlan = { v4: plan, ...(hasIpv6(ipFamily) && { v6: planAddresses6(plan) }) };
    const names = clusterNames(id);
    await preflight(id, names, plan, os);
    // Before anything is made: a first build takes a minute and must not leave a half cluster waiting.
    const base = hasOwnRoot(os) ? await ensureDebianBase(DEBIAN_BASES[os]) : undefined;

    const dir = stateDir(id);
    try {
        fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
        const privateKeyPath = path.join(dir, "id_ed25519");
        await generateKey(privateKeyPath, `ovn-kubernetes-local-${id}`);
        const publicKey = publicKeyLine(`${privateKeyPath}.pub`);
        fs.writeFileSync(path.join(dir, "authorized_keys"), publicKey + "\n", { mode: 0o600 });

        const cluster: LocalCluster = {
            id,
            dir,
            bridge: names.bridge,
            subnet: plan.subnet,
            prefixLen: plan.prefixLen,
            operatorIp: plan.operator,
            external: { ns: names.externalNetns, ip: plan.external, ...(underlay.v6 && { ip6: underlay.v6.external }) },
            ...(underlay.v6 && {
                ipFamily,
                ipv6: { subnet: underlay.v6.subnet, prefixLen: underlay.v6.prefixLen, operatorIp: underlay.v6.operator },
            }),
            hosts: [],
            privateKeyPath,
            publicKey,
            knownHostsPath: path.join(dir, "known_hosts"),
        };

        await check(["ip", "link", "add", names.bridge, "type", "bridge"]);
        await check(["ip", "address", "add", `${plan.operator}/${plan.prefixLen}`, "dev", names.bridge]);
        if (underlay.v6)
            await check(["ip", "address", "add", `${underlay.v6.operator}/${underlay.v6.prefixLen}`, "dev", names.bridge, "nodad"]);
        await check(["ip", "link", "set", names.bridge, "up"]);
        await txChecksumOff(names.bridge);
        // The external namespace first: it also makes /run/netns a mount point once, which
        // concurrent `ip netns add` calls would otherwise race to do.
        await createExternal(names, underlay);
        cluster.hosts = await Promise.all(plan.hosts.map((_, i) => createHost(cluster, names, underlay, i, { os, base, labDir })));

        fs.writeFileSync(cluster.knownHostsPath, knownHosts(cluster.hosts));
        saveCluster(cluster);
        return cluster;
    } catch (e) {
        // Leave nothing half-made behind: the next `up` must start clean.
        await down(id).catch(() => undefined);
        throw e;
    }
}
