// Bringing a local cluster up: a bridge standing for the underlay switch, an "external"
// namespace standing for the router to the outside world, and N bare hosts, each a set of
// namespaces with its own /run, OVS/OVN directories, hostname, eth0 and sshd.
import * as fs from "node:fs";
import * as path from "node:path";
import { AddressPlan, defaultSubnet, overlaps, planAddresses } from "./addressing";
import { down } from "./down";
import { checkPrivateDirsExist, etcHosts, prepareHostDirs, startHolder } from "./holder";
import { fingerprint, generateKey, knownHosts, publicKeyLine } from "./keys";
import { listLinks, rootRouteDestinations, txChecksumOff } from "./links";
import { DEFAULT_HOSTS, DEFAULT_ID, MAX_HOSTS, checkId, clusterNames, ClusterNames, hostName, stateDir } from "./names";
import { listNetns } from "./namespaces";
import { check, run } from "./run";
import { startSshd, sshdFiles, writeSshdConfig } from "./sshd";
import { LocalCluster, LocalHost, clusterFile, saveCluster } from "./state";

export interface UpOptions {
    /** Cluster id (default "local"): names, addresses and the state directory derive from it. */
    id?: string;
    /** Number of hosts (default 3). */
    hosts?: number;
    /** Underlay CIDR (default 172.31.<n>.0/24 with n derived from the id). */
    subnet?: string;
}

const TOOLS = ["ip", "unshare", "nsenter", "ethtool", "ssh-keygen", "/usr/sbin/sshd"];

async function preflight(id: string, names: ClusterNames, plan: AddressPlan): Promise<void> {
    if (process.getuid?.() !== 0) throw new Error("a local cluster needs root (network namespaces, mounts)");
    for (const tool of TOOLS) {
        const r = await run(["sh", "-c", 'command -v "$1"', "sh", tool]);
        if (r.code !== 0) throw new Error(`${tool} not found: apt-get install -y iproute2 util-linux ethtool openssh-server`);
    }
    checkPrivateDirsExist();
    const leftovers = [...listNetns(names.prefix), ...(await listLinks(names.bridge, names.prefix))];
    if (fs.existsSync(clusterFile(id)) || leftovers.length > 0) {
        throw new Error(`local cluster ${JSON.stringify(id)} already exists${leftovers.length ? ` (${leftovers.join(", ")})` : ""}: run down first`);
    }
    for (const dst of await rootRouteDestinations()) {
        if (overlaps(dst, plan.subnet)) {
            throw new Error(`underlay subnet ${plan.subnet} overlaps the route to ${dst} on this machine: choose another subnet`);
        }
    }
}

async function createExternal(names: ClusterNames, plan: AddressPlan): Promise<void> {
    const ns = names.externalNetns;
    await check(["ip", "netns", "add", ns]);
    await check(["ip", "link", "add", names.externalVeth, "type", "veth", "peer", "name", "eth0", "netns", ns]);
    await check(["ip", "link", "set", names.externalVeth, "master", names.bridge, "up"]);
    await txChecksumOff(names.externalVeth);
    await check(["ip", "-n", ns, "-batch", "-"], {
        input: [`link set lo up`, `address add ${plan.external}/${plan.prefixLen} dev eth0`, `link set eth0 up`].join("\n") + "\n",
    });
    // Its replies cross a userspace OVS bridge on the gateway host: they must carry finished checksums.
    await txChecksumOff("eth0", ns);
}

async function createHost(cluster: LocalCluster, names: ClusterNames, plan: AddressPlan, index: number): Promise<LocalHost> {
    const name = hostName(index);
    const ip = plan.hosts[index];
    const netns = names.hostNetns(name);
    const veth = names.hostVeth(index);
    const dir = path.join(cluster.dir, "hosts", name);

    await check(["ip", "netns", "add", netns]);
    await check(["ip", "link", "add", veth, "type", "veth", "peer", "name", "eth0", "netns", netns]);
    await check(["ip", "link", "set", veth, "master", cluster.bridge, "up"]);
    await txChecksumOff(veth);
    await check(["ip", "-n", netns, "-batch", "-"], {
        input: [
            `link set lo up`,
            `address add ${ip}/${plan.prefixLen} dev eth0`,
            `link set eth0 up`,
            `route add default via ${plan.external}`,
        ].join("\n") + "\n",
    });
    // The host's NIC too: whatever the program under test moves onto a userspace bridge then
    // already carries finished checksums.
    await txChecksumOff("eth0", netns);

    prepareHostDirs(dir, name, etcHosts(name, plan.hosts.map((ip, i) => ({ name: hostName(i), ip }))));
    const holderPid = await startHolder(netns, name, dir);

    const ssh = sshdFiles(dir);
    fs.mkdirSync(path.dirname(ssh.hostKey), { recursive: true });
    await generateKey(ssh.hostKey, `root@${name}`);
    writeSshdConfig(ssh, ip, path.join(cluster.dir, "authorized_keys"));
    await startSshd(holderPid, ssh, name);

    const hostKeyLine = publicKeyLine(`${ssh.hostKey}.pub`);
    return { name, ip, holderPid, sshPort: 22, hostKeyLine, hostKeyFingerprint: fingerprint(hostKeyLine), netns, veth, dir };
}

/** Creates a local cluster of bare hosts (no OVS/OVN daemon running) reachable over SSH. */
export async function up(opts: UpOptions = {}): Promise<LocalCluster> {
    const id = checkId(opts.id ?? DEFAULT_ID);
    const count = opts.hosts ?? DEFAULT_HOSTS;
    if (!Number.isInteger(count) || count < 1 || count > MAX_HOSTS) {
        throw new Error(`hosts must be an integer from 1 to ${MAX_HOSTS}, not ${count}`);
    }
    const plan = planAddresses(opts.subnet ?? defaultSubnet(id), count);
    const names = clusterNames(id);
    await preflight(id, names, plan);

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
            external: { ns: names.externalNetns, ip: plan.external },
            hosts: [],
            privateKeyPath,
            publicKey,
            knownHostsPath: path.join(dir, "known_hosts"),
        };

        await check(["ip", "link", "add", names.bridge, "type", "bridge"]);
        await check(["ip", "address", "add", `${plan.operator}/${plan.prefixLen}`, "dev", names.bridge]);
        await check(["ip", "link", "set", names.bridge, "up"]);
        await txChecksumOff(names.bridge);
        // The external namespace first: it also makes /run/netns a mount point once, which
        // concurrent `ip netns add` calls would otherwise race to do.
        await createExternal(names, plan);
        cluster.hosts = await Promise.all(plan.hosts.map((_, i) => createHost(cluster, names, plan, i)));

        fs.writeFileSync(cluster.knownHostsPath, knownHosts(cluster.hosts));
        saveCluster(cluster);
        return cluster;
    } catch (e) {
        // Leave nothing half-made behind: the next `up` must start clean.
        await down(id).catch(() => undefined);
        throw e;
    }
}
