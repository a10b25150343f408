// One sshd per host, started inside the host's namespaces. It listens only on the host's
// underlay address and lets in only the cluster's user key, like a freshly installed server
// whose root account has one authorized key.
import * as fs from "node:fs";
import * as path from "node:path";
import { inHostRoot } from "./holder";
import { generateKey, publicKeyLine } from "./keys";
import { check } from "./run";
import { isLiveProcess } from "./namespaces";

/** sshd's files, as paths seen inside the host. */
export interface SshdFiles {
    config: string;
    hostKey: string;
    log: string;
    authorizedKeys: string;
    /**
     * sshd's checks of the owners and modes of the key files and their directories. Off for hosts
     * sharing this machine's root, whose files live in the project tree; on for hosts with their own root.
     */
    strictModes: boolean;
}

/** A host on this machine's root: its sshd files live in the host's directory of the project. */
export function sharedRootSshdFiles(hostDir: string, authorizedKeys: string): SshdFiles {
    const dir = path.join(hostDir, "ssh");
    return {
        config: path.join(dir, "sshd_config"),
        hostKey: path.join(dir, "ssh_host_ed25519_key"),
        log: path.join(dir, "sshd.log"),
        authorizedKeys,
        strictModes: false,
    };
}

/** A host with its own root: where Debian's openssh-server keeps them. */
export const OWN_ROOT_SSHD_FILES: SshdFiles = {
    config: "/etc/ssh/sshd_config",
    hostKey: "/etc/ssh/ssh_host_ed25519_key",
    log: "/var/log/sshd.log",
    authorizedKeys: "/root/.ssh/authorized_keys",
    strictModes: true,
};

/** The pidfile, inside the host's private /run. */
export const SSHD_PIDFILE = "/run/sshd.pid";

/** sshd_config text. Pure. */
export function sshdConfig(files: SshdFiles, listenIps: readonly string[]): string {
    // UsePAM no: no login session machinery inside a namespace. AcceptEnv as Debian ships it, so
    // that what works here also works on a real host.
    const lines = [
        ...listenIps.map((ip) => `ListenAddress ${ip}`),
        "Port 22",
        `HostKey ${files.hostKey}`,
        `PidFile ${SSHD_PIDFILE}`,
        "PermitRootLogin prohibit-password",
        "PubkeyAuthentication yes",
        "PasswordAuthentication no",
        "KbdInteractiveAuthentication no",
        `AuthorizedKeysFile ${files.authorizedKeys}`,
        "UsePAM no",
        `StrictModes ${files.strictModes ? "yes" : "no"}`,
        "AcceptEnv LANG LC_*",
        "Subsystem sftp internal-sftp",
    ];
    return lines.join("\n") + "\n";
}

/**
 * Writes sshd's config and a new host key before the host starts; `onMachine` maps a path seen
 * in the host to where this machine writes it now. Returns the host key's public line.
 */
export async function prepareSshd(
    files: SshdFiles,
    listenIps: readonly string[],
    hostname: string,
    onMachine: (file: string) => string,
): Promise<string> {
    const hostKey = onMachine(files.hostKey);
    await generateKey(hostKey, `root@${hostname}`);
    fs.writeFileSync(onMachine(files.config), sshdConfig(files, listenIps));
    return publicKeyLine(`${hostKey}.pub`);
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Reads sshd's pid through the holder's view of the filesystem, if sshd is running. */
export function sshdPid(holderPid: number): number | undefined {
    try {
        const pid = Number(fs.readFileSync(inHostRoot(holderPid, SSHD_PIDFILE), "utf8").trim());
        return Number.isInteger(pid) && pid > 0 && isLiveProcess(pid) ? pid : undefined;
    } catch {
        return undefined;
    }
}

/** Starts the host's own sshd (/usr/sbin/sshd as the host sees it) in the holder's namespaces and waits for its pidfile. */
export async function startSshd(holderPid: number, files: SshdFiles, hostname: string): Promise<number> {
    await check(["nsenter", "-t", String(holderPid), "-m", "-n", "-u", "--", "/usr/sbin/sshd", "-f", files.config, "-E", files.log]);
    // sshd writes its pidfile only after the starting parent has exited: poll for it.
    for (let i = 0; i < 100; i++) {
        const pid = sshdPid(holderPid);
        if (pid !== undefined) return pid;
        await sleep(50);
    }
    const logFile = inHostRoot(holderPid, files.log);
    const log = fs.existsSync(logFile) ? fs.readFileSync(logFile, "utf8").trim() : "";
    throw new Error(`host ${hostname}: sshd did not write ${SSHD_PIDFILE} within 5 s${log ? `: ${log}` : ""}`);
}
