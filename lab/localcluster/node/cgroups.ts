// Each lab node's cgroup root, `/lc-<id>/<node>`: every host shares this machine's cgroup
// hierarchies, so each kubelet gets a subtree of its own, made beforehand in every mounted
// hierarchy (the kubelet checks that its root exists in all of them), with the cpuset v1
// controller's cpus and mems copied from the parent (a v1 cpuset cgroup starts empty and takes
// no task). `removeClusterCgroups` ends whatever still runs in a cluster's subtree (pod
// containers live in their own namespaces, outside what `down` finds by network namespace) and
// removes it.
import * as fs from "node:fs";
import * as path from "node:path";
import { checkId } from "../names";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The cgroup root of a node of cluster `id`. Pure. */
export function nodeCgroupRoot(id: string, node: string): string {
    return `/lc-${checkId(id)}/${node}`;
}

export interface CgroupMount {
    mountPoint: string;
    fsType: "cgroup" | "cgroup2";
    /** The superblock's options: for v1, which controllers (or `name=`) the hierarchy has. */
    options: string;
}

/** The cgroup v1 and v2 hierarchies mounted, from /proc/self/mountinfo. Pure. */
export function cgroupMounts(mountinfo: string): CgroupMount[] {
    return mountinfo
        .split("\n")
        .map((line) => line.split(" "))
        .map((f) => ({ f, sep: f.indexOf("-") }))
        .filter(({ f, sep }) => sep > 5 && (f[sep + 1] === "cgroup" || f[sep + 1] === "cgroup2"))
        .map(({ f, sep }) => ({ mountPoint: f[4], fsType: f[sep + 1] as CgroupMount["fsType"], options: f[sep + 3] ?? "rw" }));
}

function hierarchies(): string[] {
    return cgroupMounts(fs.readFileSync("/proc/self/mountinfo", "utf8")).map((m) => m.mountPoint);
}

/**
 * A script that mounts this machine's cgroup hierarchies in a host at the same places: a host's
 * /sys is its network namespace's own sysfs, which has none of them. Mounting a v1 hierarchy with
 * the same controllers attaches the existing one. Arguments: fs type, options, mount point, each
 * hierarchy in turn.
 */
export const MOUNT_CGROUPS_SCRIPT = `set -eu
mountpoint -q /sys/fs/cgroup || mount -t tmpfs -o mode=0755 tmpfs /sys/fs/cgroup
while [ $# -gt 0 ]; do
  mkdir -p "$3"
  mountpoint -q "$3" || mount -t "$1" -o "$2" cgroup "$3"
  shift 3
done`;

/** The argv that mounts every hierarchy of this machine in a host (run inside it). */
export function mountCgroupsArgv(): string[] {
    const mounts = cgroupMounts(fs.readFileSync("/proc/self/mountinfo", "utf8"));
    return ["sh", "-c", MOUNT_CGROUPS_SCRIPT, "mount-cgroups", ...mounts.flatMap((m) => [m.fsType, m.options, m.mountPoint])];
}

/** Makes `cgroupRoot` in every hierarchy. */
export function createCgroupRoot(cgroupRoot: string): void {
    for (const mount of hierarchies()) {
        let dir = mount;
        for (const part of cgroupRoot.split("/").filter(Boolean)) {
            const parent = dir;
            dir = path.join(dir, part);
            if (fs.existsSync(dir)) continue;
            fs.mkdirSync(dir);
            for (const f of ["cpuset.cpus", "cpuset.mems"]) {
                if (fs.existsSync(path.join(dir, f))) fs.writeFileSync(path.join(dir, f), fs.readFileSync(path.join(parent, f)));
            }
        }
    }
}

/** The cgroup directories under `dir`, deepest first. */
function subtree(dir: string): string[] {
    const children = fs.readdirSync(dir, { withFileTypes: true }).filter((e) => e.isDirectory());
    return [...children.flatMap((c) => subtree(path.join(dir, c.name))), dir];
}

function pidsIn(dirs: readonly string[]): number[] {
    return dirs.flatMap((d) => {
        try {
            return fs.readFileSync(path.join(d, "cgroup.procs"), "utf8").split("\n").filter(Boolean).map(Number);
        } catch {
            return [];
        }
    });
}

/** Kills every process in `/lc-<id>` of any hierarchy, then removes the subtrees (bounded). */
export async function removeClusterCgroups(id: string): Promise<number> {
    const tops = hierarchies()
        .map((m) => path.join(m, `lc-${checkId(id)}`))
        .filter((d) => fs.existsSync(d));
    if (tops.length === 0) return 0;
    let killed = 0;
    for (let attempt = 0; attempt < 100; attempt++) {
        const dirs = tops.filter((t) => fs.existsSync(t)).flatMap(subtree);
        if (dirs.length === 0) return killed;
        for (const pid of pidsIn(dirs)) {
            try {
                process.kill(pid, "SIGKILL");
                killed++;
            } catch {
                // gone already
            }
        }
        for (const d of dirs) {
            try {
                fs.rmdirSync(d);
            } catch {
                // still has tasks (exiting) or children: the next round
            }
        }
        await sleep(100);
    }
    throw new Error(`cgroups of cluster ${id} still in use after 10 s: ${tops.join(", ")}`);
}
