// A real OpenSSH server for tests, on 127.0.0.1:<free port> only, with its own ed25519 host key
// and user key in a temp dir: key-only root login, nothing read from /etc/ssh. Several may run at
// once. stop() ends the listener and every session it spawned, as a host going away would.
import { execFile, spawn, type ChildProcess } from "child_process";
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "fs/promises";
import { tmpdir } from "os";
import { join } from "path";
import { promisify } from "util";
import type { SshTarget } from "@ovn-kubernetes-as-code/cluster/model";
import { freeLoopbackPort, killChild, killOnExit, waitUntil } from "./nbServer";
import { freshRootHome } from "../localcluster/holder";

const run = promisify(execFile);
const SSHD = "/usr/sbin/sshd";

/**
 * sshd in a mount namespace of its own where root's home is a fresh Debian one, as on the lab's
 * hosts (localcluster/holder.ts): this machine's holds its operator's shell start-up files, which
 * bash runs for every command an SSH session starts (here a pyenv init: about 100 processes and
 * 2 s a command). `exec` keeps sshd's pid the one spawned.
 */
const OWN_HOME = `set -eu
mount --bind "$1" /root
exec "$2" -D -f "$3" -E "$4"`;

export interface TestSshd {
    host: string;
    port: number;
    user: string;
    /** OpenSSH private key of the user (the secret the program is given). */
    privateKey: string;
    /** The host key as an OpenSSH public key line, `ssh-ed25519 AAAA… comment`. */
    hostKeyLine: string;
    /** The host key fingerprint as `ssh-keygen -l` prints it, `SHA256:…`. */
    hostKeyFingerprint: string;
    dir: string;
    logFile: string;
    /** An SshTarget for this server, pinned to its host key unless overridden. */
    target(overrides?: Partial<SshTarget>): SshTarget;
    /** How many logins sshd has accepted since it was first started (from its log). */
    acceptedLogins(): Promise<number>;
    /** Ends the listener and every session process it spawned; waits until they are gone. */
    stop(): Promise<void>;
    /** Starts it again on the same port and keys. */
    start(): Promise<void>;
    cleanup(): Promise<void>;
}

export interface SshdOptions {
    /** Allow stream-local and TCP forwarding (default true); false makes clients fall back to exec. */
    forwarding?: boolean;
    /** sshd's MaxSessions (default OpenSSH's 10). */
    maxSessions?: number;
}

async function keygen(file: string, comment: string): Promise<void> {
    await run("ssh-keygen", ["-q", "-t", "ed25519", "-N", "", "-C", comment, "-f", file]);
}

function sshdConfig(dir: string, port: number, options: SshdOptions): string {
    const forwarding = options.forwarding === false ? "no" : "yes";
    return [
        `ListenAddress 127.0.0.1:${port}`,
        `HostKey ${join(dir, "ssh_host_ed25519_key")}`,
        `PidFile ${join(dir, "sshd.pid")}`,
        `AuthorizedKeysFile ${join(dir, "authorized_keys")}`,
        "PermitRootLogin prohibit-password",
        "PubkeyAuthentication yes",
        "PasswordAuthentication no",
        "KbdInteractiveAuthentication no",
        "UsePAM no",
        "StrictModes no",
        `AllowTcpForwarding ${forwarding}`,
        `AllowStreamLocalForwarding ${forwarding}`,
        "AllowAgentForwarding no",
        "X11Forwarding no",
        "PrintMotd no",
        `MaxSessions ${options.maxSessions ?? 10}`,
        "MaxStartups 100",
        "LogLevel VERBOSE",
        "",
    ].join("\n");
}

/** Every process below `root` in the process tree (sshd's per-connection processes and their commands). */
async function descendants(root: number): Promise<number[]> {
    const parents: Record<number, number[]> = {};
    for (const name of await readdir("/proc")) {
        if (!/^\d+$/.test(name)) continue;
        let stat: string;
        try {
            stat = await readFile(`/proc/${name}/stat`, "utf8");
        } catch {
            continue; // exited meanwhile
        }
        // Fields after the command name (which may contain spaces and parentheses): state, ppid, ...
        const [state, ppid] = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
        if (state === "Z") continue;
        (parents[Number(ppid)] ??= []).push(Number(name));
    }
    const found: number[] = [];
    const queue = [root];
    while (queue.length > 0) {
        for (const child of parents[queue.shift() as number] ?? []) {
            found.push(child);
            queue.push(child);
        }
    }
    return found;
}

async function alive(pid: number): Promise<boolean> {
    try {
        const stat = await readFile(`/proc/${pid}/stat`, "utf8");
        return stat.slice(stat.lastIndexOf(")") + 2)[0] !== "Z"; // zombies are gone for our purpose
    } catch {
        return false;
    }
}

export async function startSshd(options: SshdOptions = {}): Promise<TestSshd> {
    // sshd's privilege separation directory; Debian's package creates it only when the service starts.
    await mkdir("/run/sshd", { recursive: true, mode: 0o755 });
    const dir = await mkdtemp(join(tmpdir(), "sshd-"));
    const port = await freeLoopbackPort();
    const logFile = join(dir, "sshd.log");
    await keygen(join(dir, "ssh_host_ed25519_key"), "test-host");
    await keygen(join(dir, "id_ed25519"), "test-user");
    await writeFile(join(dir, "authorized_keys"), await readFile(join(dir, "id_ed25519.pub")));
    await writeFile(join(dir, "sshd_config"), sshdConfig(dir, port, options));
    const home = join(dir, "root");
    freshRootHome(home);
    const privateKey = await readFile(join(dir, "id_ed25519"), "utf8");
    const hostKeyLine = (await readFile(join(dir, "ssh_host_ed25519_key.pub"), "utf8")).trim();
    // ssh-keygen's own fingerprint, independent of the code under test.
    const hostKeyFingerprint = (await run("ssh-keygen", ["-l", "-E", "sha256", "-f", join(dir, "ssh_host_ed25519_key.pub")])).stdout.split(
        " ",
    )[1];

    const log = async () => readFile(logFile, "utf8").catch(() => "");
    const count = (text: string, needle: string) => text.split(needle).length - 1;
    let child: ChildProcess | undefined;
    killOnExit(() => [child]);

    const start = async () => {
        if (child && child.exitCode === null && child.signalCode === null) return;
        const listening = `Server listening on 127.0.0.1 port ${port}`;
        const before = count(await log(), listening);
        const started = spawn(
            "unshare",
            ["--mount", "--propagation", "private", "/bin/sh", "-c", OWN_HOME, "sshd", home, SSHD, join(dir, "sshd_config"), logFile],
            {
                stdio: "ignore",
            },
        );
        started.unref();
        child = started;
        await waitUntil(`sshd on 127.0.0.1:${port}`, async () => {
            if (started.exitCode !== null) throw new Error(`sshd exited with ${started.exitCode}: ${await log()}`);
            return count(await log(), listening) > before;
        });
    };

    const stop = async () => {
        const master = child;
        if (master?.pid === undefined) return;
        const sessions = await descendants(master.pid);
        await killChild(master, "SIGKILL");
        for (const pid of sessions) {
            try {
                process.kill(pid, "SIGKILL");
            } catch {
                // already gone
            }
        }
        await waitUntil("sshd sessions to end", async () => {
            for (const pid of sessions) if (await alive(pid)) return false;
            return true;
        });
    };

    await start();
    return {
        host: "127.0.0.1",
        port,
        user: "root",
        privateKey,
        hostKeyLine,
        hostKeyFingerprint,
        dir,
        logFile,
        target: (overrides = {}) => ({
            host: "127.0.0.1",
            port,
            user: "root",
            hostKey: hostKeyLine,
            insecureIgnoreHostKey: false,
            ...overrides,
        }),
        acceptedLogins: async () => count(await log(), "Accepted publickey for root"),
        stop,
        start,
        cleanup: async () => {
            await stop();
            await rm(dir, { recursive: true, force: true });
        },
    };
}
