// A pod's sandbox, for pods with a network of their own: a network namespace created in the host
// (`ip netns add` in the host's mount namespace: /var/run/netns/<name> there, where the network
// plugin and ovnkube-node find it) and attached by CNI ADD. Its record is kept in the pod's
// directory before the plugins run, so a sandbox is always torn down (CNI DEL, namespace deleted),
// also by a later process of this kubelet after a restart.
import { randomBytes, randomUUID } from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";
import { check } from "../run";
import { CniHost, cniAdd, cniDel, networkStatus } from "./cni";
import { NetworkConfigList, cniArgs, podIPsFromResult } from "./cniConfig";
import { setupError } from "./errors";
import { inHost, writeFileInHost } from "./hostfs";
import { podDir } from "./mounts";
import { networkNotReadyMessage } from "./nodeObject";

export const POD_IFNAME = "eth0";
const NETNS_DIR = "/var/run/netns";

export interface SandboxRecord {
    /** The sandbox's id: CNI_CONTAINERID and K8S_POD_INFRA_CONTAINER_ID. */
    id: string;
    netnsName: string;
    /** The namespace's path in the host: CNI_NETNS. */
    netnsPath: string;
    args: string;
    config: NetworkConfigList;
    /** The ADD result, once the plugins succeeded (cached for DEL). */
    result?: unknown;
    podIPs: string[];
}

const recordPath = (rootDir: string, uid: string) => path.posix.join(podDir(rootDir, uid), "sandbox.json");

// What a booted host's init gives (systemd makes / a shared mount): /run/netns as a shared mount,
// so that a namespace created after a container started (ovnkube-node mounts /var/run/netns with
// HostToContainer propagation) still appears inside it. As `ip netns add` does on first use: make
// it shared, and when it is not a mount point of its own (EINVAL), bind it onto itself first.
// (`mountpoint` cannot decide that here: a Debian 12 host's table still lists the machine's
// /run/netns beneath the host's own /run.)
const SHARE_NETNS_DIR = `set -eu
mkdir -p /run/netns
mount --make-shared /run/netns 2>/dev/null || { mount --bind /run/netns /run/netns; mount --make-shared /run/netns; }`;

/** Makes the host's /run/netns a shared mount point before any container starts. */
export async function shareNetnsDir(holderPid: number): Promise<void> {
    await hostRun(holderPid, ["/bin/sh", "-c", SHARE_NETNS_DIR]);
}

function hostRun(holderPid: number, argv: string[]): Promise<string> {
    return check(["nsenter", "-t", String(holderPid), "-m", "-u", "--", ...argv]);
}

function save(h: CniHost, rootDir: string, uid: string, r: SandboxRecord): void {
    writeFileInHost(h.holderPid, recordPath(rootDir, uid), JSON.stringify(r, null, 2) + "\n", 0o600);
}

/** Creates the namespace and attaches it; on a plugin failure undoes both and throws the plugin's error. */
export async function createSandbox(h: CniHost, rootDir: string, pod: { namespace: string; name: string; uid: string }): Promise<SandboxRecord> {
    const net = networkStatus(h);
    if (!net.ready) throw setupError(`network is not ready: ${networkNotReadyMessage(net.message)}`);
    const id = randomBytes(32).toString("hex");
    const netnsName = `cni-${randomUUID()}`;
    const record: SandboxRecord = {
        id,
        netnsName,
        netnsPath: path.posix.join(NETNS_DIR, netnsName),
        args: cniArgs(pod.namespace, pod.name, pod.uid, id),
        config: net.config,
        podIPs: [],
    };
    save(h, rootDir, pod.uid, record);
    await hostRun(h.holderPid, ["ip", "netns", "add", netnsName]);
    await hostRun(h.holderPid, ["ip", "-n", netnsName, "link", "set", "lo", "up"]);
    try {
        record.result = await cniAdd(h, net.config, attachment(record));
    } catch (e) {
        await removeSandbox(h, rootDir, pod.uid, record).catch(() => undefined);
        throw setupError(`failed to setup network for sandbox ${JSON.stringify(id)}: ${(e as Error).message}`);
    }
    record.podIPs = podIPsFromResult(record.result, POD_IFNAME);
    save(h, rootDir, pod.uid, record);
    return record;
}

function attachment(r: SandboxRecord) {
    return { containerId: r.id, netns: r.netnsPath, ifname: POD_IFNAME, args: r.args };
}

/** CNI DEL with the cached result, then the namespace; the record goes last, so a failure is retried. */
export async function removeSandbox(h: CniHost, rootDir: string, uid: string, r: SandboxRecord): Promise<void> {
    await cniDel(h, r.config, attachment(r), r.result);
    if (fs.existsSync(inHost(h.holderPid, r.netnsPath))) await hostRun(h.holderPid, ["ip", "netns", "delete", r.netnsName]);
    fs.rmSync(inHost(h.holderPid, recordPath(rootDir, uid)), { force: true });
}

/** Sandboxes recorded in the kubelet's directory (by pod uid): what a previous run left. */
export function recordedSandboxes(holderPid: number, rootDir: string): Array<{ uid: string; record: SandboxRecord }> {
    const pods = inHost(holderPid, path.posix.join(rootDir, "pods"));
    if (!fs.existsSync(pods)) return [];
    return fs.readdirSync(pods).flatMap((uid) => {
        try {
            return [{ uid, record: JSON.parse(fs.readFileSync(path.join(pods, uid, "sandbox.json"), "utf8")) as SandboxRecord }];
        } catch {
            return [];
        }
    });
}
