// Taking a local cluster down. Everything is found by its `lc-<id>` name, so this also cleans up
// after a crashed `up` or a lost state file, and touches nothing that belongs to anyone else.
import * as fs from "node:fs";
import { deleteLink, listLinks } from "./links";
import { checkId, clusterNames, stateDir } from "./names";
import { deleteNetns, isInNetns, killNamespaceProcesses, listNetns, mountNamespaceOf } from "./namespaces";
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
 * Mount namespaces of the hosts whose holders still live: a process that entered only a host's
 * mount namespace (nsenter -m) is not in its network namespace but keeps its mounts alive. Taken
 * only from a holder verified to sit in our network namespace, so the inode is ours.
 */
function holderMountNamespaces(id: string): number[] {
    if (!fs.existsSync(clusterFile(id))) return [];
    return loadCluster(id)
        .hosts.filter((h) => isInNetns(h.holderPid, h.netns))
        .map((h) => mountNamespaceOf(h.holderPid))
        .filter((i): i is number => i !== undefined);
}

/** Removes every process, namespace, link and file of cluster `id`. Safe to run twice. */
export async function down(id: string): Promise<DownReport> {
    const names = clusterNames(checkId(id));
    const netns = listNetns(names.prefix);
    const links = await listLinks(names.bridge, names.prefix);
    // Ending the processes first frees each namespace (and its mounts) the moment we delete it.
    const processes = await killNamespaceProcesses(netns, holderMountNamespaces(id));
    for (const ns of netns) await deleteNetns(ns);

    // Root-side veth ends die with their peers' namespaces, asynchronously; delete what is left.
    const left = await listLinks(names.bridge, names.prefix);
    for (const link of left.filter((l) => l !== names.bridge)) await deleteLink(link);
    if (left.includes(names.bridge)) await deleteLink(names.bridge);
    for (let i = 0; i < 60 && (await listLinks(names.bridge, names.prefix)).length > 0; i++) await sleep(50);
    const remaining = await listLinks(names.bridge, names.prefix);
    if (remaining.length > 0) throw new Error(`links still present after down: ${remaining.join(", ")}`);

    fs.rmSync(stateDir(id), { recursive: true, force: true });
    return { processes, netns, links };
}
