// Namespaces and the processes inside them, found through /proc. `down` and the pod tool use this
// to end exactly the processes that live in namespaces we made, and nothing else.
import * as fs from "node:fs";
import { check } from "./run";

const NETNS_DIR = "/run/netns";

/** Names of the named network namespaces that start with `prefix`. */
export function listNetns(prefix: string): string[] {
    let names: string[] = [];
    try {
        names = fs.readdirSync(NETNS_DIR);
    } catch {
        return [];
    }
    return names.filter((n) => n.startsWith(prefix)).sort();
}

/** The inode that identifies a named network namespace (as in `net:[<inode>]`), or undefined. */
export function netnsInode(name: string): number | undefined {
    try {
        return fs.statSync(`${NETNS_DIR}/${name}`).ino;
    } catch {
        return undefined;
    }
}

function nsInodeOf(pid: number, kind: "net" | "mnt"): number | undefined {
    try {
        const m = /\[(\d+)\]/.exec(fs.readlinkSync(`/proc/${pid}/ns/${kind}`));
        return m ? Number(m[1]) : undefined;
    } catch {
        return undefined;
    }
}

/** A zombie has already let go of its namespaces; PID 1 here reaps slowly, so treat Z as gone. */
export function isLiveProcess(pid: number): boolean {
    try {
        const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
        const state = stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3);
        return state !== "Z" && state !== "X";
    } catch {
        return false;
    }
}

/** True when `pid` lives and sits in the named network namespace (guards against a reused pid). */
export function isInNetns(pid: number, netns: string): boolean {
    const want = netnsInode(netns);
    return want !== undefined && isLiveProcess(pid) && nsInodeOf(pid, "net") === want;
}

/** Namespaces to empty, by inode: network namespaces, and mount namespaces of live holders. */
export interface NamespaceSet {
    net: ReadonlySet<number>;
    mnt: ReadonlySet<number>;
}

/**
 * The mount namespace of a live holder (checked by the caller), to also catch processes that
 * entered only it, held open until `release`. Holding it matters: the kernel hands a freed
 * namespace's inode number to the next namespace made, and `ip netns exec` makes a mount namespace
 * for every command it runs. A namespace that emptied while we were still scanning for stragglers
 * would otherwise lend its number to another lab's fresh `ip netns exec`, and that process would be
 * killed as ours.
 */
export function pinMountNamespace(pid: number): { inode: number; release(): void } | undefined {
    let fd: number;
    try {
        fd = fs.openSync(`/proc/${pid}/ns/mnt`, "r");
    } catch {
        return undefined;
    }
    return { inode: fs.fstatSync(fd).ino, release: () => fs.closeSync(fd) };
}

/** Live processes in any of the namespaces. */
export function processesIn(set: NamespaceSet): number[] {
    const pids: number[] = [];
    for (const entry of fs.readdirSync("/proc")) {
        if (!/^\d+$/.test(entry)) continue;
        const pid = Number(entry);
        if (pid === process.pid) continue;
        const net = nsInodeOf(pid, "net");
        const mnt = nsInodeOf(pid, "mnt");
        const ours = (net !== undefined && set.net.has(net)) || (mnt !== undefined && set.mnt.has(mnt));
        if (ours && isLiveProcess(pid)) pids.push(pid);
    }
    return pids;
}

/** Live processes in the named network namespace, each with its command line (NUL-separated; "" once gone). */
export function processesInNetns(name: string): Array<{ pid: number; cmdline: string }> {
    const inode = netnsInode(name);
    if (inode === undefined) return [];
    return processesIn({ net: new Set([inode]), mnt: new Set() }).map((pid) => {
        try {
            return { pid, cmdline: fs.readFileSync(`/proc/${pid}/cmdline`, "utf8") };
        } catch {
            return { pid, cmdline: "" };
        }
    });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Ends every process inside the given named network namespaces (and the given mount namespaces):
 * SIGTERM so daemons can exit cleanly, then SIGKILL for what remains. Rescans because a dying
 * supervisor (e.g. an OVS --monitor parent) can start a new child meanwhile. Returns how many
 * processes were signalled.
 */
export async function killNamespaceProcesses(netnsNames: readonly string[], mountNamespaces: readonly number[] = []): Promise<number> {
    const set: NamespaceSet = {
        net: new Set(netnsNames.map(netnsInode).filter((i): i is number => i !== undefined)),
        mnt: new Set(mountNamespaces),
    };
    if (set.net.size === 0 && set.mnt.size === 0) return 0;
    const seen = new Set<number>();
    const signal = (pids: number[], sig: NodeJS.Signals) => {
        for (const pid of pids) {
            seen.add(pid);
            try {
                process.kill(pid, sig);
            } catch {
                /* already gone */
            }
        }
    };
    const deadline = (ms: number) => Date.now() + ms;
    signal(processesIn(set), "SIGTERM");
    for (let until = deadline(2000); Date.now() < until; await sleep(50)) {
        if (processesIn(set).length === 0) return seen.size;
    }
    for (let until = deadline(5000); Date.now() < until; await sleep(50)) {
        const left = processesIn(set);
        if (left.length === 0) return seen.size;
        signal(left, "SIGKILL");
    }
    throw new Error(`processes still running in ${netnsNames.join(", ")} after SIGKILL: ${processesIn(set).join(", ")}`);
}

export async function deleteNetns(name: string): Promise<void> {
    if (netnsInode(name) === undefined) return;
    await check(["ip", "netns", "delete", name]);
}
