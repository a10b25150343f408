// Starting a host's registration agent from the local cluster: the process lives in the host's
// network namespace (so `down`, which ends every process in the cluster's namespaces, ends it),
// detached, with its log in the cluster's state directory. Its options go through a file: they
// name the node's kubeconfig.
import * as fs from "node:fs";
import * as path from "node:path";
import { pollUntil } from "../../kubeclient";
import { deadDaemon, logTail, startInNetns } from "../kube/daemon";
import { readTextOr } from "../hostfs";
import { isLiveProcess } from "../namespaces";
import type { LocalCluster, LocalHost } from "../state";
import { READY_LINE } from "./main";
import { loadOptions, resolveOptions, type RegistrationOptions } from "./options";

export interface RunningRegistration {
    pid: number;
    nodeName: string;
    logFile: string;
}

const MAIN = path.join(__dirname, "main.ts");

/** Registers `host` as Node `host.name` with the node credentials in `kubeconfigPath`, and keeps it registered; returns once it is. */
export async function startRegistration(
    cluster: LocalCluster,
    host: LocalHost,
    kubeconfigPath: string,
    extra: Pick<RegistrationOptions, "labels" | "capacity"> = {},
    readyTimeoutMs = 120_000,
): Promise<RunningRegistration> {
    const options: RegistrationOptions = { nodeName: host.name, kubeconfigPath, holderPid: host.holderPid, internalIP: host.ip, ...extra };
    resolveOptions(options);
    const stateDir = path.join(cluster.dir, "kubelet", host.name);
    fs.mkdirSync(stateDir, { recursive: true, mode: 0o700 });
    const optionsFile = path.join(stateDir, "registration.json");
    fs.writeFileSync(optionsFile, JSON.stringify(options, null, 2) + "\n", { mode: 0o600 });
    // What the process will check first, checked here too, so that a mistake fails at once.
    loadOptions(optionsFile);
    const logFile = path.join(stateDir, "registration.log");
    // Only this start's lines count: an agent started again appends to the log of the one before.
    const from = readTextOr(logFile).length;
    const tsx = require.resolve("tsx");
    const pid = startInNetns(host.netns, [process.execPath, "--import", tsx, MAIN, optionsFile], logFile);
    const running = { pid, nodeName: host.name, logFile };
    await pollUntil(async () => (readTextOr(logFile).slice(from).includes(READY_LINE) ? true : undefined), {
        timeoutMs: readyTimeoutMs,
        intervalMs: 200,
        what: `the registration of node ${host.name} (log: ${logFile})`,
        giveUp: () => deadDaemon({ registration: { pid, log: logFile } }),
    }).catch(async (e) => {
        await stopRegistration(running).catch(() => undefined);
        throw new Error(`${(e as Error).message}\n${logTail(logFile)}`);
    });
    return running;
}

/** SIGTERM and a bounded wait for its exit. */
export async function stopRegistration(r: RunningRegistration, timeoutMs = 10_000): Promise<void> {
    try {
        process.kill(r.pid, "SIGTERM");
    } catch {
        return;
    }
    await pollUntil(async () => (isLiveProcess(r.pid) ? undefined : true), {
        timeoutMs,
        intervalMs: 100,
        what: `registration agent ${r.pid} of ${r.nodeName} to exit`,
    });
}
