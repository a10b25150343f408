// Taking a local cluster down. Everything is found by its `lc-<id>` name, so this also cleans up
// after a crashed `up` or a lost state file, and touches nothing that belongs to anyone else.
import * as fs from "node:fs";
import { deleteLink, listLinks } from "./links";
import { checkId, clusterNames, stateDir } from "./names";
import { removeClusterCgroups } from "./node/cgroups";
import { check } from "./run";
import { deleteNetns, isInNetns, killNamespaceProcesses, listNetns, pinMountNamespace } from "./namespaces";
import { clusterFile, loadCluster } from "./state";

export interface DownReport {
    /** Processes that were signalled (holders, sshd, daemons and anything started in hosts or pods). */
    processes: number;
    /** The cluster's network namespaces that existed (hosts, external, pods). */
    netns: string[];
    /** The cluster's root-namespace links that existed (bridge and veth ends). */
    links: string[];
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Mount namespaces of the hosts whose holders still live, pinned (see pinMountNamespace): a process
 * that entered only a host's mount namespace (nsenter -m) is not in its network namespace but
 * keeps its mounts alive. Taken only from a holder verified, once the namespace is pinned, to sit
 * in our network namespace, so the inode is ours.
 */
function holderMountNamespaces(id: string): Array<{ inode: number; release(): void }> {
    if (!fs.existsSync(clusterFile(id))) return [];
    const pinned = [];
    for (const h of loadCluster(id).hosts) {
        const pin = pinMountNamespace(h.holderPid);
        if (!pin) continue;
        if (isInNetns(h.holderPid, h.netns)) pinned.push(pin);
        else pin.release();
    }
    return pinned;
}

/** Removes every process, namespace, link and file of cluster `id`. Safe to run twice. */
export async function down(id: string): Promise<DownReport> {
    const names = clusterNames(checkId(id));
    const netns = listNetns(names.prefix);
    const links = await listLinks(names.bridge, names.prefix);
    // Ending the processes first frees each namespace (and its mounts) the moment we delete it.
    const mounts = holderMountNamespaces(id);
    let processes: number;
    try {
        processes = await killNamespaceProcesses(
            netns,
            mounts.map((m) => m.inode),
        );
    } finally {
        for (const m of mounts) m.release();
    }
    // Pod containers of real kubelets run in namespaces of their own; their cgroups are the cluster's.
    processes += await removeClusterCgroups(id);
    for (const ns of netns) await deleteNetns(ns);

    // Root-side veth ends die with their peers' namespaces, asynchronously; delete what is left.
    const left = await listLinks(names.bridge, names.prefix);
    for (const link of left.filter((l) => l !== names.bridge)) await deleteLink(link);
    if (left.includes(names.bridge)) await deleteLink(names.bridge);
    for (let i = 0; i < 60 && (await listLinks(names.bridge, names.prefix)).length > 0; i++) await sleep(50);
    const remaining = await listLinks(names.bridge, names.prefix);
    if (remaining.length > 0) throw new Error(`links still present after down: ${remaining.join(", ")}`);

    // rm(1), not fs.rmSync: a real kubelet's host holds tens of thousands of image files, and
    // --one-file-system keeps it from following a mount left behind.
    await check(["rm", "-rf", "--one-file-system", "--", stateDir(id)], { timeoutMs: 5 * 60_000 });
    return { processes, netns, links };
}
