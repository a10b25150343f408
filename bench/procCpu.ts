// CPU seconds from /proc (proc(5)): a process's own, its reaped children's, and the machine's.
import * as fs from "node:fs";

const TICKS_PER_SECOND = 100;

/** A process's CPU seconds (user + system): its own, and those of its children it has reaped. */
export function processCpu(pid: number | "self"): { own: number; children: number } {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    const [utime, stime, cutime, cstime] = stat
        .slice(stat.lastIndexOf(")") + 2)
        .split(" ")
        .slice(11, 15)
        .map(Number);
    return { own: (utime + stime) / TICKS_PER_SECOND, children: (cutime + cstime) / TICKS_PER_SECOND };
}

/** CPU seconds the whole machine has spent, every core (all but idle and iowait). */
export function machineCpu(): number {
    const [, ...ticks] = fs.readFileSync("/proc/stat", "utf8").split("\n")[0].trim().split(/\s+/).map(Number);
    return (ticks.reduce((a, x) => a + x, 0) - ticks[3] - ticks[4]) / TICKS_PER_SECOND;
}
