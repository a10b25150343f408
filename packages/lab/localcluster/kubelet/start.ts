// Starting a host's kubelet stand-in from the local cluster: the process lives in the host's
// network namespace (so `down`, which ends every process in the cluster's namespaces, ends it,
// and it reaches the API server over the underlay like a real kubelet), detached, with its log in
// the host's state directory. Its options go through a file: they name the node's kubeconfig.
import * as fs from "node:fs";
import * as path from "node:path";
import { pollUntil } from "../../kubeclient";
import { deadDaemon, logTail, startInNetns } from "../kube/daemon";
import { isLiveProcess } from "../namespaces";
import { readTextOr } from "./hostfs";
import { READY_LINE } from "./main";
import { KubeletOptions, loadOptions, resolveOptions } from "./options";

export interface StartKubeletOptions extends KubeletOptions {
    /** The host's network namespace (`lc-<id>-<host>`). */
    netns: string;
    /** Directory on this machine for the options file and the kubelet's log (e.g. .local/<id>/hosts/<host>/kubelet). */
    stateDir: string;
    /** Bound on the wait for registration (default 120 s). */
    readyTimeoutMs?: number;
}

export interface RunningKubelet {
    pid: number;
    nodeName: string;
    optionsFile: string;
    logFile: string;
}

const MAIN = path.join(__dirname, "main.ts");

/** Starts the kubelet of one host and waits, bounded, until its Node is registered. */
export async function startKubelet(opts: StartKubeletOptions): Promise<RunningKubelet> {
    const { netns, stateDir, readyTimeoutMs, ...options } = opts;
    resolveOptions(options);
    fs.mkdirSync(stateDir, { recursive: true, mode: 0o700 });
    const optionsFile = path.join(stateDir, "options.json");
    fs.writeFileSync(optionsFile, JSON.stringify(options, null, 2) + "\n", { mode: 0o600 });
    // What the process will check first, checked here too, so that a mistake fails at once.
    loadOptions(optionsFile);
    return launch(netns, options.nodeName, optionsFile, path.join(stateDir, "kubelet.log"), readyTimeoutMs);
}

/**
 * Starts a stopped kubelet again with the options it had, as a host coming back does: it registers
 * its Node anew if the Node was deleted meanwhile.
 */
export function restartKubelet(k: RunningKubelet, netns: string, readyTimeoutMs?: number): Promise<RunningKubelet> {
    return launch(netns, k.nodeName, k.optionsFile, k.logFile, readyTimeoutMs);
}

async function launch(netns: string, nodeName: string, optionsFile: string, logFile: string, readyTimeoutMs = 120_000): Promise<RunningKubelet> {
    // Only this start's lines count: a restart appends to the log of the run before.
    const from = readTextOr(logFile).length;
    const tsx = require.resolve("tsx");
    const pid = startInNetns(netns, [process.execPath, "--import", tsx, MAIN, optionsFile], logFile);
    const kubelet = { pid, nodeName, optionsFile, logFile };
    await pollUntil(async () => (readTextOr(logFile).slice(from).includes(READY_LINE) ? true : undefined), {
        timeoutMs: readyTimeoutMs,
        intervalMs: 200,
        what: `the kubelet of ${nodeName} to register its node (log: ${logFile})`,
        giveUp: () => deadDaemon({ kubelet: { pid, log: logFile } }),
    }).catch(async (e) => {
        await stopKubelet(kubelet).catch(() => undefined);
        throw new Error(`${(e as Error).message}\n${logTail(logFile)}`);
    });
    return kubelet;
}

/** SIGTERM (the kubelet kills its containers on the way out) and a bounded wait for its exit. */
export async function stopKubelet(k: RunningKubelet, timeoutMs = 10_000): Promise<void> {
    try {
        process.kill(k.pid, "SIGTERM");
    } catch {
        return;
    }
    await pollUntil(async () => (isLiveProcess(k.pid) ? undefined : true), { timeoutMs, intervalMs: 100, what: `kubelet ${k.pid} of ${k.nodeName} to exit` });
}
