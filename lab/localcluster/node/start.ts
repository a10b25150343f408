// A lab host as a Kubernetes node with the upstream kubelet and containerd: both run inside the
// host's namespaces and root (so `down`, which ends every process of the cluster's namespaces,
// ends them), detached, with their logs on this machine; the lab's images are imported into
// containerd before the kubelet starts, and the kubelet registers with its pre-issued client
// certificate (kubeadm's /etc/kubernetes/kubelet.conf).
import { spawn } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { pollUntil, type KubeClient } from "../../kubeclient";
import { deadDaemon, logTail, withoutProxy } from "../kube/daemon";
import { hostArgv } from "../exec";
import { isLiveProcess } from "../namespaces";
import { check, run } from "../run";
import type { LocalHost } from "../state";
import { createCgroupRoot, mountCgroupsArgv, nodeCgroupRoot } from "./cgroups";
import { CLUSTER_CA, CONTAINERD_CONFIG, CONTAINERD_SOCKET, containerdConfig, KUBELET_CONFIG, kubeletArgv, kubeletConfig } from "./config";
import { PAUSE_IMAGE } from "./images";

/** What lab nodes' CNI plugins are searched in: where ovn-kubernetes installs its shim, then Debian's plugins. */
export const NODE_CNI_BIN_DIRS = ["/opt/cni/bin", "/usr/lib/cni"];

export interface RealNodeOptions {
    clusterId: string;
    host: LocalHost;
    /** The cluster CA (PEM). */
    caPem: string;
    /** The kubelet's kubeconfig in the host's root (written by the caller). */
    kubeconfig: string;
    /** The kubelet binary and the image archives, as the host sees them. */
    kubeletBin: string;
    imageArchives: readonly string[];
    /** The kubelet's --node-ip: the host's address in each family the cluster runs, the primary first (default [host.ip]). */
    nodeIps?: readonly string[];
    /** This machine's directory for the daemons' logs. */
    logDir: string;
    admin: KubeClient;
    timeoutMs?: number;
}

export interface RealNode {
    nodeName: string;
    containerd: { pid: number; log: string };
    kubelet: { pid: number; log: string };
    /** How its kubelet was started, to start it again after a stop. */
    kubeletArgv: string[];
}

function writeInHost(host: LocalHost, file: string, text: string, mode = 0o644): void {
    const onMachine = `/proc/${host.holderPid}/root${file}`;
    fs.mkdirSync(path.dirname(onMachine), { recursive: true, mode: 0o755 });
    fs.writeFileSync(onMachine, text, { mode });
}

function startInHost(host: LocalHost, argv: readonly string[], log: string): number {
    const fd = fs.openSync(log, "a", 0o600);
    try {
        const [bin, ...args] = hostArgv(host, argv);
        const child = spawn(bin, args, { detached: true, stdio: ["ignore", fd, fd], env: withoutProxy(process.env) });
        child.on("error", () => undefined);
        child.unref();
        if (child.pid === undefined) throw new Error(`cannot start ${argv[0]} in ${host.name}`);
        return child.pid;
    } finally {
        fs.closeSync(fd);
    }
}

/** The Node registered, with the conditions the kubelet reports (Ready only once a CNI network exists). */
async function nodeRegistered(admin: KubeClient, name: string): Promise<true | undefined> {
    const node = (await admin.tryGet({ apiVersion: "v1", kind: "Node", name })) as { status?: { conditions?: unknown[] } } | undefined;
    return node?.status?.conditions?.length ? true : undefined;
}

/** Starts containerd, imports the images, starts the kubelet, and waits for its Node. */
export async function startRealNode(opts: RealNodeOptions): Promise<RealNode> {
    const { host } = opts;
    const timeoutMs = opts.timeoutMs ?? 180_000;
    const cgroupRoot = nodeCgroupRoot(opts.clusterId, host.name);
    createCgroupRoot(cgroupRoot);
    await check(hostArgv(host, mountCgroupsArgv()));
    writeInHost(host, CLUSTER_CA, opts.caPem);
    const nodeIps = opts.nodeIps ?? [host.ip];
    writeInHost(host, KUBELET_CONFIG, kubeletConfig({ address: nodeIps[0], cgroupRoot }));

    const containerd = await startContainerd(host, opts.logDir, timeoutMs);
    await importImages(host, opts.imageArchives, timeoutMs);

    const argv = kubeletArgv({ bin: opts.kubeletBin, nodeName: host.name, nodeIps, kubeconfig: opts.kubeconfig });
    return startKubelet(
        host,
        { nodeName: host.name, containerd, kubelet: { pid: 0, log: path.join(opts.logDir, "kubelet.log") }, kubeletArgv: argv },
        opts.admin,
        timeoutMs,
    );
}

/** Starts the host's containerd with the lab's configuration and waits until it answers. */
export async function startContainerd(host: LocalHost, logDir: string, timeoutMs = 180_000): Promise<RealNode["containerd"]> {
    writeInHost(host, CONTAINERD_CONFIG, containerdConfig(PAUSE_IMAGE, NODE_CNI_BIN_DIRS));
    fs.mkdirSync(logDir, { recursive: true, mode: 0o700 });
    const containerd = { pid: 0, log: path.join(logDir, "containerd.log") };
    containerd.pid = startInHost(host, ["containerd", "--config", CONTAINERD_CONFIG], containerd.log);
    await pollUntil(
        async () => ((await check(hostArgv(host, ["ctr", "--address", CONTAINERD_SOCKET, "version"])).catch(() => "")) ? true : undefined),
        {
            timeoutMs,
            what: `containerd on ${host.name} (log: ${containerd.log})`,
            giveUp: () => deadDaemon({ containerd }),
        },
    );
    return containerd;
}

/** Stops a containerd that runs no container (TERM, as systemd does), and waits for it to end: its databases are then closed. */
export async function stopContainerd(containerd: RealNode["containerd"], timeoutMs = 30_000): Promise<void> {
    try {
        process.kill(containerd.pid, "SIGTERM");
    } catch {
        return; // already gone
    }
    await pollUntil(async () => (isLiveProcess(containerd.pid) ? undefined : true), {
        timeoutMs,
        intervalMs: 100,
        what: `containerd (pid ${containerd.pid}) to end (log: ${containerd.log})`,
    });
}

/** ctr against the node's containerd, in the namespace the kubelet uses. */
const ctr = (host: LocalHost, ...args: string[]) => hostArgv(host, ["ctr", "--address", CONTAINERD_SOCKET, "-n", "k8s.io", ...args]);

/** Whether the node's containerd holds image `ref` where the kubelet looks for it. */
export async function hasImage(host: LocalHost, ref: string): Promise<boolean> {
    return (await check(ctr(host, "images", "ls", "-q", `name==${ref}`))).trim() !== "";
}

/** Imports OCI archives (paths as the host sees them) into the node's containerd, where the kubelet looks for images. */
export async function importImages(host: LocalHost, archives: readonly string[], timeoutMs = 180_000): Promise<void> {
    for (const archive of archives) await check(ctr(host, "images", "import", archive), { timeoutMs });
}

/** Starts the node's kubelet (again) and waits until it has registered its Node. */
async function startKubelet(host: LocalHost, node: RealNode, admin: KubeClient, timeoutMs: number): Promise<RealNode> {
    const kubelet = { pid: startInHost(host, node.kubeletArgv, node.kubelet.log), log: node.kubelet.log };
    await pollUntil(() => nodeRegistered(admin, host.name), {
        timeoutMs,
        intervalMs: 500,
        what: `the kubelet of ${host.name} to register its Node (log: ${kubelet.log})`,
        giveUp: () => deadDaemon({ containerd: node.containerd, kubelet }),
    }).catch((e) => {
        throw new Error(`${(e as Error).message}\n${logTail(kubelet.log)}`);
    });
    return { ...node, kubelet };
}

/**
 * Takes the node out of service as an operator does before deleting its Node: the kubelet stopped,
 * then every container it ran killed (containerd stays, as the runtime does on a node whose
 * kubelet is down; the kubelet does not stop its containers on the way out).
 */
export async function stopRealKubelet(host: LocalHost, node: RealNode, timeoutMs = 30_000): Promise<void> {
    try {
        process.kill(node.kubelet.pid, "SIGTERM");
    } catch {
        // already gone
    }
    await pollUntil(async () => (isLiveProcess(node.kubelet.pid) ? undefined : true), {
        timeoutMs,
        intervalMs: 100,
        what: `the kubelet of ${node.nodeName} to exit`,
    });
    const running = async () =>
        (await check(ctr(host, "tasks", "ls")))
            .split("\n")
            .filter((l) => /\sRUNNING\s*$/.test(l))
            .map((l) => l.split(/\s+/)[0]);
    for (const task of await running()) await run(ctr(host, "tasks", "kill", "--all", "--signal", "SIGKILL", task));
    await pollUntil(async () => ((await running()).length === 0 ? true : undefined), {
        timeoutMs,
        intervalMs: 250,
        what: `the containers of ${node.nodeName} to stop`,
    });
}

/** Starts a stopped kubelet again, as a host coming back does: it registers its Node anew if it was deleted meanwhile. */
export function restartRealKubelet(host: LocalHost, node: RealNode, admin: KubeClient, timeoutMs = 180_000): Promise<RealNode> {
    return startKubelet(host, node, admin, timeoutMs);
}
