// An `up` cut short as a CI runner's can be: the offline engine's command line run as its own
// process group (engine, program runner, dynamic-provider host), killed whole with SIGKILL at the
// first progress line a pattern matches; or a host's side of it caught while a command runs there.
import { spawn } from "node:child_process";
import { BUNDLE_ROOT } from "@ovn-kubernetes-as-code/cluster/hosts";
import { hostExec, type LocalCluster } from "../localcluster";
import { processesInNetns } from "../localcluster/namespaces";
import type { OfflineOptions } from "../offline/api";
import { PROJECT_ROOT } from "../projectRoot";

/** Runs `up --yes` for `options` and kills its process group at the first line `at` matches; resolves with that line. */
export function upKilledAt(options: OfflineOptions, at: RegExp): Promise<string> {
    const args = ["--import", "tsx", "lab/offline/cli.ts", "up", "--yes", "--stack", options.stack];
    if (options.stackFile) args.push("--stack-file", options.stackFile);
    if (options.localDir) args.push("--local-dir", options.localDir);
    const child = spawn(process.execPath, args, { cwd: PROJECT_ROOT, detached: true, stdio: ["ignore", "pipe", "pipe"] });
    return new Promise((resolve, reject) => {
        let out = "";
        let hit: string | undefined;
        child.stdout.on("data", (b: Buffer) => {
            out += b.toString();
            const line = out.split("\n").find((l) => at.test(l));
            if (line && hit === undefined) {
                hit = line;
                process.kill(-child.pid!, "SIGKILL");
            }
        });
        child.on("exit", () => (hit !== undefined ? resolve(hit) : reject(new Error(`the up ended before ${at}:\n${out}`))));
    });
}

/**
 * Resolves once a process in `host`'s network namespace has `word` in its command line: one of its
 * host commands under way (its `bash -c` lives as long as the command). Scans /proc in this process
 * every 20 ms: a command of a few tens of milliseconds is still seen, which a poll that starts a
 * program each time (`ip netns pids`) misses.
 */
export async function commandRunningOn(cluster: LocalCluster, host: string, word: string, timeoutMs = 600_000): Promise<void> {
    const netns = cluster.hosts.find((h) => h.name === host)?.netns;
    if (netns === undefined) throw new Error(`no host ${host}`);
    const deadline = Date.now() + timeoutMs;
    const running = () => processesInNetns(netns).some((p) => p.cmdline.includes(word));
    while (Date.now() < deadline) {
        if (running()) return;
        await new Promise((r) => setTimeout(r, 20));
    }
    throw new Error(`no process of ${host} ran ${word} within ${timeoutMs / 1000} s`);
}

/** What a host's bundle directory holds, hidden entries (an install's incoming copy) included (none without the directory): after any up, one whole bundle. */
export async function bundlesOn(cluster: LocalCluster, host: string): Promise<string[]> {
    const r = await hostExec(cluster, host, ["bash", "-c", 'if [[ -d $1 ]]; then ls -A "$1"; fi', "bundles", BUNDLE_ROOT]);
    if (r.code !== 0) throw new Error(`${host}: ls ${BUNDLE_ROOT}: ${r.stderr}`);
    return r.stdout.split("\n").filter(Boolean);
}
