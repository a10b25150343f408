// Long-running programs of the control plane: started detached inside a named network
// namespace with their output in a log file, so they outlive the command that started them (as
// the hosts' daemons do) and the cluster's `down` finds them by their namespace.
import { spawn } from "node:child_process";
import * as fs from "node:fs";
import { isLiveProcess } from "../namespaces";

/**
 * The environment without HTTP(S)_PROXY and friends: the namespace reaches only the underlay, so
 * a proxy of this machine could only get between the API server and the hosts it calls (an
 * admission webhook on a host's address, honouring HTTPS_PROXY, would go to the proxy).
 */
export function withoutProxy(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
    return Object.fromEntries(Object.entries(env).filter(([k]) => !/^(https?|all|no)_proxy$/i.test(k)));
}

/** Starts argv in `netns` (`ip netns exec` execs it in place: the pid is the program's) and returns its pid. */
export function startInNetns(netns: string, argv: readonly string[], logPath: string): number {
    const log = fs.openSync(logPath, "a", 0o600);
    try {
        const child = spawn("ip", ["netns", "exec", netns, ...argv], {
            detached: true,
            stdio: ["ignore", log, log],
            env: withoutProxy(process.env),
        });
        // A program that cannot be started shows as an early exit with its log; nothing to crash on here.
        child.on("error", () => undefined);
        child.unref();
        if (child.pid === undefined) throw new Error(`cannot start ${argv[0]} in ${netns}`);
        return child.pid;
    } finally {
        fs.closeSync(log);
    }
}

/** The last lines of a log, for error messages about a program that died. */
export function logTail(logPath: string, lines = 15): string {
    try {
        return fs.readFileSync(logPath, "utf8").trimEnd().split("\n").slice(-lines).join("\n");
    } catch {
        return "(no log)";
    }
}

/**
 * The first of the named processes that no longer runs, with its log's tail. Liveness only: for
 * a moment after the start the pid is still `ip` entering the namespace.
 */
export function deadDaemon(daemons: Readonly<Record<string, { pid: number; log: string }>>): string | undefined {
    for (const [name, d] of Object.entries(daemons)) {
        if (!isLiveProcess(d.pid)) return `${name} (pid ${d.pid}) exited; the end of ${d.log}:\n${logTail(d.log)}`;
    }
    return undefined;
}
