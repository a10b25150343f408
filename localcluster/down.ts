// Taking a local cluster down. Everything is found by its `lc-<id>` name, so this also cleans up
// after a crashed `up` or a lost state file, and touches nothing that belongs to anyone else.
import * as fs from "node:fs";
import { deleteLink, listLinks } from "./links";
import { checkId, clusterNames, stateDir } from "./names";
import { deleteNetns, killNetnsProcesses, listNetns } from "./namespaces";

export interface DownReport {
    /** Processes that were signalled (holders, sshd, daemons and anything started in hosts or pods). */
    processes: number;
    /** The cluster's network namespaces that existed (hosts, external, pods). */
    netns: string[];
    /** The cluster's root-namespace links that existed (bridge and veth ends). */
    links: string[];
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Removes every process, namespace, link and file of cluster `id`. Safe to run twice. */
export async function down(id: string): Promise<DownReport> {
    const names = clusterNames(checkId(id));
    const netns = listNetns(names.prefix);
    const links = await listLinks(names.bridge, names.prefix);
    // Ending the processes first frees each namespace (and its mounts) the moment we delete it.
    const processes = await killNetnsProcesses(netns);
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
