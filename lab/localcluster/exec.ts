// Running commands inside a host, the way a process on that machine would run: in the host's
// mount, network and UTS namespaces. For test assertions and the pod tool; the program under test
// itself reaches hosts only through SSH.
import { isInNetns } from "./namespaces";
import { RunOptions, RunResult, run } from "./run";
import { LocalCluster, LocalHost, findHost } from "./state";

/** The host's holder pid, after checking that it still is our host (a dead holder's pid may be reused). */
export function enterableHost(cluster: LocalCluster, hostName: string): LocalHost {
    const host = findHost(cluster, hostName);
    if (!isInNetns(host.holderPid, host.netns)) {
        throw new Error(
            `host ${hostName} of local cluster ${cluster.id} is not running (holder ${host.holderPid} gone): run down and up again`,
        );
    }
    return host;
}

/** argv for running `command` inside the host: an argv array runs as is, a string runs with `sh -c`. */
export function hostArgv(host: LocalHost, command: readonly string[] | string): string[] {
    const inner = typeof command === "string" ? ["sh", "-c", command] : [...command];
    if (inner.length === 0) throw new Error("hostExec: empty command");
    return ["nsenter", "-t", String(host.holderPid), "-m", "-n", "-u", "--", ...inner];
}

/**
 * Runs a command inside a host and returns its exit code and output (a non-zero exit is not
 * thrown). Prefer an argv array; a script string is passed to `sh -c` as is, so quote any value
 * in it with shellQuote.
 */
export async function hostExec(
    cluster: LocalCluster,
    hostName: string,
    command: readonly string[] | string,
    opts?: RunOptions,
): Promise<RunResult> {
    return run(hostArgv(enterableHost(cluster, hostName), command), opts);
}
