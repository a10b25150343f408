// What a local cluster can leave behind on the machine, looked up independently of the
// library's own bookkeeping so that tests of `down` check the machine, not the code.
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";

export interface ProcessMark {
    pid: number;
    /** Start time in clock ticks (field 22 of /proc/<pid>/stat): tells a reused pid apart. */
    start: string;
}

function stat(pid: number): { state: string; start: string } | undefined {
    try {
        const text = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
        const fields = text.slice(text.lastIndexOf(")") + 2).split(" ");
        return { state: fields[0], start: fields[19] };
    } catch {
        return undefined;
    }
}

/** Every process whose network namespace is one of the named ones. */
export function processesIn(netnsNames: string[]): ProcessMark[] {
    const inodes = new Set(netnsNames.map((n) => `net:[${fs.statSync(`/run/netns/${n}`).ino}]`));
    const marks: ProcessMark[] = [];
    for (const entry of fs.readdirSync("/proc").filter((e) => /^\d+$/.test(e))) {
        let link = "";
        try {
            link = fs.readlinkSync(`/proc/${entry}/ns/net`);
        } catch {
            continue;
        }
        const s = stat(Number(entry));
        if (inodes.has(link) && s) marks.push({ pid: Number(entry), start: s.start });
    }
    return marks;
}

/** A mark for one pid (empty when it does not exist). */
export function markOf(pid: number): ProcessMark[] {
    const s = stat(pid);
    return s ? [{ pid, start: s.start }] : [];
}

/** The marked processes that still run (a zombie counts as gone: PID 1 here reaps slowly). */
export function stillRunning(marks: ProcessMark[]): ProcessMark[] {
    return marks.filter((m) => {
        const s = stat(m.pid);
        return s !== undefined && s.start === m.start && s.state !== "Z";
    });
}

/** Namespaces, links and mounts named after cluster `id`. */
export function leftovers(id: string): { netns: string[]; links: string[]; mounts: string[] } {
    const prefix = `lc-${id}`;
    const netns = fs.existsSync("/run/netns") ? fs.readdirSync("/run/netns").filter((n) => n.startsWith(`${prefix}-`)) : [];
    const links = (JSON.parse(execFileSync("ip", ["-j", "link", "show"], { encoding: "utf8" })) as Array<{ ifname: string }>)
        .map((l) => l.ifname)
        .filter((n) => n === prefix || n.startsWith(`${prefix}-`));
    const mounts = fs
        .readFileSync("/proc/self/mountinfo", "utf8")
        .split("\n")
        .filter((l) => l.includes(`/${prefix}-`) || l.includes(`/.local/${id}/`));
    return { netns, links, mounts };
}
