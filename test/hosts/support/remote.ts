// Running generated scripts on local-cluster hosts the way @pulumi/command's remote.Command does:
// over real SSH (host key pinned), the script text as the exec command, `stdin` piped in.
import { spawn } from "node:child_process";
import type { LocalCluster } from "../../../lab/localcluster";
import { bundleInstallCommand, bundleStdin, scriptBundle } from "../../../components/hosts/scripts/bundle";

export interface ScriptRun {
    code: number;
    stdout: string;
    stderr: string;
    /** What the run wrote to the host's log file that its last stderr line names ("log <path>"), or "". */
    log: string;
}

/** Hard bound on one script run: every script's own waits are shorter. */
const RUN_LIMIT_MS = 240_000;

export function sshArgs(cluster: LocalCluster, hostName: string): string[] {
    const host = cluster.hosts.find((h) => h.name === hostName);
    if (!host) throw new Error(`no host ${hostName} in local cluster ${cluster.id}`);
    return [
        "-i",
        cluster.privateKeyPath,
        "-o",
        `UserKnownHostsFile=${cluster.knownHostsPath}`,
        "-o",
        "StrictHostKeyChecking=yes",
        "-o",
        "BatchMode=yes",
        "-o",
        "ConnectTimeout=10",
        "-o",
        "ServerAliveInterval=5",
        "-o",
        "ServerAliveCountMax=6",
        "-p",
        String(host.sshPort),
        `root@${host.ip}`,
    ];
}

export async function runScript(cluster: LocalCluster, hostName: string, script: string, stdin = ""): Promise<ScriptRun> {
    const r = await sshRun(cluster, hostName, script, stdin);
    const logFile = /^log (\/\S+)$/m.exec(r.stderr.trimEnd().split("\n").pop() ?? "")?.[1];
    if (logFile === undefined) return { ...r, log: "" };
    // The run's own section: from the last header line on.
    const text = (await sshRun(cluster, hostName, `cat ${logFile}`)).stdout;
    return { ...r, log: text.slice(text.lastIndexOf("\n== ") + 1) };
}

/** Installs this package's script bundle on a host, as its ScriptBundle resource does. */
export async function installBundle(cluster: LocalCluster, hostName: string): Promise<void> {
    const bundle = scriptBundle();
    const r = await sshRun(cluster, hostName, bundleInstallCommand(bundle.digest), bundleStdin(bundle));
    if (r.code !== 0) throw new Error(`bundle install on ${hostName} exited ${r.code}: ${r.stderr}`);
}

function sshRun(cluster: LocalCluster, hostName: string, script: string, stdin = ""): Promise<Omit<ScriptRun, "log">> {
    return new Promise((resolve, reject) => {
        const child = spawn("ssh", [...sshArgs(cluster, hostName), script], { stdio: ["pipe", "pipe", "pipe"] });
        let stdout = "";
        let stderr = "";
        const timer = setTimeout(() => child.kill("SIGKILL"), RUN_LIMIT_MS);
        child.stdout.on("data", (d) => (stdout += d));
        child.stderr.on("data", (d) => (stderr += d));
        child.on("error", reject);
        child.on("close", (code) => {
            clearTimeout(timer);
            resolve({ code: code ?? -1, stdout, stderr });
        });
        child.stdin.end(stdin);
    });
}

/** Run a script and fail with its stderr when it exits non-zero. */
export async function runOk(cluster: LocalCluster, hostName: string, script: string, stdin = ""): Promise<ScriptRun> {
    const r = await runScript(cluster, hostName, script, stdin);
    if (r.code !== 0) throw new Error(`script on ${hostName} exited ${r.code}\n--- stderr ---\n${r.stderr}\n--- stdout ---\n${r.stdout}`);
    return r;
}
