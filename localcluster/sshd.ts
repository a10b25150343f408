// One sshd per host, started inside the host's namespaces. It listens only on the host's
// underlay address and lets in only the cluster's user key, like a freshly installed server
// whose root account has one authorized key.
import * as fs from "node:fs";
import * as path from "node:path";
import { check } from "./run";
import { isLiveProcess } from "./namespaces";

export interface SshdFiles {
    config: string;
    hostKey: string;
    log: string;
}

export function sshdFiles(hostDir: string): SshdFiles {
    const dir = path.join(hostDir, "ssh");
    return {
        config: path.join(dir, "sshd_config"),
        hostKey: path.join(dir, "ssh_host_ed25519_key"),
        log: path.join(dir, "sshd.log"),
    };
}

/** The pidfile, inside the host's private /run. */
export const SSHD_PIDFILE = "/run/sshd.pid";

export function writeSshdConfig(files: SshdFiles, listenIp: string, authorizedKeys: string): void {
    // StrictModes no: the key files live in the project tree, whose owners and modes sshd's strict
    // checks do not expect. UsePAM no: no login session machinery inside a namespace.
    // AcceptEnv as Debian ships it, so that what works here also works on a real host.
    const lines = [
        `ListenAddress ${listenIp}`,
        "Port 22",
        `HostKey ${files.hostKey}`,
        `PidFile ${SSHD_PIDFILE}`,
        "PermitRootLogin prohibit-password",
        "PubkeyAuthentication yes",
        "PasswordAuthentication no",
        "KbdInteractiveAuthentication no",
        `AuthorizedKeysFile ${authorizedKeys}`,
        "UsePAM no",
        "StrictModes no",
        "AcceptEnv LANG LC_*",
        "Subsystem sftp internal-sftp",
    ];
    fs.mkdirSync(path.dirname(files.config), { recursive: true });
    fs.writeFileSync(files.config, lines.join("\n") + "\n");
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Reads sshd's pid through the holder's view of the filesystem, if sshd is running. */
export function sshdPid(holderPid: number): number | undefined {
    try {
        const pid = Number(fs.readFileSync(`/proc/${holderPid}/root${SSHD_PIDFILE}`, "utf8").trim());
        return Number.isInteger(pid) && pid > 0 && isLiveProcess(pid) ? pid : undefined;
    } catch {
        return undefined;
    }
}

/** Starts sshd in the holder's namespaces and waits for its pidfile. */
export async function startSshd(holderPid: number, files: SshdFiles, hostname: string): Promise<number> {
    await check(["nsenter", "-t", String(holderPid), "-m", "-n", "-u", "--",
        "/usr/sbin/sshd", "-f", files.config, "-E", files.log]);
    // sshd writes its pidfile only after the starting parent has exited: poll for it.
    for (let i = 0; i < 100; i++) {
        const pid = sshdPid(holderPid);
        if (pid !== undefined) return pid;
        await sleep(50);
    }
    const log = fs.existsSync(files.log) ? fs.readFileSync(files.log, "utf8").trim() : "";
    throw new Error(`host ${hostname}: sshd did not write ${SSHD_PIDFILE} within 5 s${log ? `: ${log}` : ""}`);
}
