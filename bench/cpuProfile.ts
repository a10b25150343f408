// A child process's CPU profile (node --cpu-prof) and its top entries by self time: the functions,
// and the packages they belong to, where the process spent its CPU.
import * as fs from "node:fs";
import * as path from "node:path";

/** Node options that make a process write its CPU profile into `dir` when it ends (SIGTERM included). */
export function cpuProfileArgs(dir: string): string[] {
    return ["--cpu-prof", "--cpu-prof-dir", dir, "--require", path.join(__dirname, "exitOnTerm.cjs")];
}

interface ProfileNode {
    id: number;
    callFrame: { functionName: string; url: string; lineNumber: number };
}

/** Where code comes from: an npm package, the project's own files, node itself, or the VM (GC, idle). */
function origin(url: string): string {
    if (url === "") return "(vm)";
    if (url.startsWith("node:")) return "node";
    const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
    if (pkg) return pkg[1];
    const own = /\/(components|offline|test|bench)\//.exec(url);
    return own ? `project ${own[1]}/` : url;
}

/** Now on the clock a profile's sample times use (V8's monotonic clock, as process.hrtime), in µs. */
export const profileClockUs = (): number => Number(process.hrtime.bigint() / 1000n);

/**
 * Self time per function and per origin, the largest first, from every profile in `dir`; only the
 * samples taken within `window` (profileClockUs() readings of another process on this machine)
 * when given, e.g. to leave out the process's start.
 */
export function topEntries(
    dir: string,
    count = 15,
    window?: { fromUs: number; toUs: number },
): { functions: string[]; origins: string[]; totalMs: number } {
    const byFunction = new Map<string, number>();
    const byOrigin = new Map<string, number>();
    let total = 0;
    for (const file of fs.readdirSync(dir).filter((f) => f.endsWith(".cpuprofile"))) {
        const p = JSON.parse(fs.readFileSync(path.join(dir, file), "utf8")) as {
            nodes: ProfileNode[];
            startTime: number;
            samples: number[];
            timeDeltas: number[];
        };
        const nodes = new Map(p.nodes.map((n) => [n.id, n]));
        let at = p.startTime;
        p.samples.forEach((id, i) => {
            const us = p.timeDeltas[i] ?? 0;
            at += us;
            if (window && (at < window.fromUs || at > window.toUs)) return;
            const { functionName, url, lineNumber } = nodes.get(id)!.callFrame;
            if (functionName === "(idle)" || functionName === "(program)") return;
            const name =
                `${functionName || "(anonymous)"} ${url ? `${url.replace(/^.*node_modules\//, "").replace(/^file:\/\/.*?\/(components|offline|test|bench)\//, "$1/")}:${lineNumber + 1}` : ""}`.trim();
            byFunction.set(name, (byFunction.get(name) ?? 0) + us);
            byOrigin.set(origin(url), (byOrigin.get(origin(url)) ?? 0) + us);
            total += us;
        });
    }
    const list = (m: Map<string, number>) =>
        [...m]
            .sort((a, b) => b[1] - a[1])
            .slice(0, count)
            .map(([k, us]) => `${(us / 1000).toFixed(0).padStart(6)} ms ${((100 * us) / total).toFixed(1).padStart(5)}%  ${k}`);
    return { functions: list(byFunction), origins: list(byOrigin), totalMs: total / 1000 };
}
