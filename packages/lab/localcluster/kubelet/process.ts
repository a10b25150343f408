// A container as a process on the host: it enters the host's mount and UTS namespaces (and, for
// a pod with its own network, the pod's network namespace), gets a mount namespace of its own
// below the host's (propagation slave: the host's later mounts reach it, its own never reach the
// host), bind-mounts its volumes and image files there, and execs the command with exactly the
// environment the kubelet resolved. The environment travels as the process environment, never
// on a command line, so secret values stay out of /proc/<pid>/cmdline.
import { ChildProcess, spawn } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import type { BindMount } from "./mounts";
import { CriLogWriter } from "./logs";

export interface LaunchSpec {
    /** The host's holder process: its mount and UTS namespaces are the host's. */
    holderPid: number;
    /** The pod's network namespace as a path inside the host; undefined = the host's network. */
    netnsPath?: string;
    /** Hostname in a UTS namespace of the container's own; undefined = the host's. */
    hostname?: string;
    mounts: readonly BindMount[];
    workingDir?: string;
    argv: readonly string[];
    env: Readonly<Record<string, string>>;
}

/** Variables the shell doing the setup sets for itself; restored afterwards when the pod spec sets them. */
const SHELL_MANAGED = ["PWD", "OLDPWD"];

// Runs inside the container's fresh mount namespace. Every value arrives as a positional
// parameter. Diagnostics of the setup go to fd 3, the status pipe; "started" on it means the
// command is being exec'd. The setup uses a fixed PATH: the container's may point anywhere.
const SETUP_SCRIPT = `set -eu
exec 4>&2 2>&3
cpath=\${PATH-}
PATH=/usr/sbin:/usr/bin:/sbin:/bin
hostname=$1 workdir=$2 n=$3
shift 3
if [ -n "$hostname" ]; then printf '%s' "$hostname" >/proc/sys/kernel/hostname; fi
while [ "$n" -gt 0 ]; do
  src=$1 dst=$2 access=$3 prop=$4 create=$5
  shift 5
  n=$((n - 1))
  if [ "$create" = create ]; then mkdir -p "$src"; fi
  if [ ! -e "$src" ]; then echo "mount source $src does not exist on the host" >&2; exit 128; fi
  if [ -d "$src" ]; then mkdir -p "$dst"; else mkdir -p "$(dirname "$dst")"; [ -e "$dst" ] || : >"$dst"; fi
  mount --rbind "$src" "$dst"
  if [ "$access" = ro ]; then mount -o remount,bind,ro "$dst"; fi
  if [ "$prop" = None ]; then mount --make-rprivate "$dst"; else mount --make-rslave "$dst"; fi
done
if [ -n "$workdir" ]; then mkdir -p "$workdir"; cd "$workdir"; fi
unset PWD OLDPWD
n=$1
shift
while [ "$n" -gt 0 ]; do export "$1"; shift; n=$((n - 1)); done
PATH=$cpath
case $1 in
*/*) if [ ! -f "$1" ] || [ ! -x "$1" ]; then echo "exec: \\"$1\\": stat $1: no such file or directory" >&2; exit 128; fi ;;
*) if ! command -v "$1" >/dev/null; then echo "exec: \\"$1\\": executable file not found in \\$PATH" >&2; exit 128; fi ;;
esac
echo started >&3
exec 2>&4 3>&- 4>&-
exec "$@"`;

/** The argv that starts a container (pure). */
export function launchArgv(spec: LaunchSpec): string[] {
    if (spec.argv.length === 0) throw new Error("container argv is empty");
    const enterHost = ["/usr/bin/nsenter", "-t", String(spec.holderPid), "-m", "-u", "--"];
    // A path given to nsenter is opened in the caller's mount namespace: enter the host's first.
    const enterPodNet = spec.netnsPath ? ["/usr/bin/nsenter", `--net=${spec.netnsPath}`, "--"] : [];
    const unshare = ["/usr/bin/unshare", "--mount", ...(spec.hostname ? ["--uts"] : []), "--propagation", "slave", "--"];
    const mounts = spec.mounts.flatMap((m) => [m.source, m.target, m.readOnly ? "ro" : "rw", m.propagation, m.createSource ? "create" : "-"]);
    const restore = SHELL_MANAGED.filter((k) => k in spec.env).map((k) => `${k}=${spec.env[k]}`);
    return [
        ...enterHost,
        ...enterPodNet,
        ...unshare,
        "/bin/sh", "-c", SETUP_SCRIPT, "container-setup",
        spec.hostname ?? "", spec.workingDir ?? "", String(spec.mounts.length), ...mounts,
        String(restore.length), ...restore,
        ...spec.argv,
    ];
}

export interface ContainerExit {
    exitCode: number;
    /** Set when the container never got to exec its command (mount, workingDir or command errors). */
    startError?: string;
    finishedAt: Date;
}

/** A running container: its pid (also its process group), the moment it started and its exit. */
export class ContainerProcess {
    readonly pid: number;
    readonly startedAt = new Date();
    /** Resolves once the command is exec'd; rejects with the setup's diagnostics otherwise. */
    readonly started: Promise<void>;
    readonly exited: Promise<ContainerExit>;
    private done = false;

    constructor(spec: LaunchSpec, logFd: number) {
        const argv = launchArgv(spec);
        const child: ChildProcess = spawn(argv[0], argv.slice(1), {
            env: { ...spec.env },
            // Its own process group: stopping the container signals everything it started.
            detached: true,
            stdio: ["ignore", "pipe", "pipe", "pipe"],
        });
        // A failed start is reported through pid (below) and the exit; the event itself carries nothing more.
        child.on("error", () => undefined);
        if (child.pid === undefined) {
            fs.closeSync(logFd);
            throw new Error("cannot start the container process: /usr/bin/nsenter missing? (apt-get install util-linux)");
        }
        this.pid = child.pid;
        const log = new CriLogWriter(logFd);
        child.stdout!.on("data", (d: Buffer) => log.write("stdout", d));
        child.stderr!.on("data", (d: Buffer) => log.write("stderr", d));
        let status = "";
        const statusPipe = child.stdio[3] as NodeJS.ReadableStream;
        statusPipe.on("data", (d: Buffer) => (status += d.toString()));
        const statusDone = new Promise<void>((resolve) => statusPipe.on("close", () => resolve()));
        this.started = statusDone.then(() => {
            if (!status.endsWith("started\n")) throw new Error(status.trim() || "the container's setup ended without a word");
        });
        this.started.catch(() => undefined);
        this.exited = new Promise((resolve) => {
            child.on("exit", (code, signal) => {
                this.done = true;
                // As when a container's init dies: whatever it left behind in its group goes too.
                this.signalGroup("SIGKILL");
                const exitCode = code ?? 128 + (os.constants.signals[signal as NodeJS.Signals] ?? 0);
                void statusDone.then(() => {
                    const startError = status.endsWith("started\n") ? undefined : status.trim() || `exited with ${exitCode} before starting`;
                    resolve({ exitCode, startError, finishedAt: new Date() });
                });
            });
            child.on("close", () => log.close());
        });
    }

    get running(): boolean {
        return !this.done;
    }

    signalGroup(signal: NodeJS.Signals): void {
        try {
            process.kill(-this.pid, signal);
        } catch {
            /* already gone */
        }
    }

    /** TERM, then KILL after the grace period, as the kubelet stops a container. */
    async stop(graceMs: number): Promise<ContainerExit> {
        if (this.running) {
            this.signalGroup("SIGTERM");
            let timer: NodeJS.Timeout | undefined;
            const graceOver = new Promise<void>((r) => (timer = setTimeout(r, graceMs)));
            await Promise.race([this.exited, graceOver]);
            clearTimeout(timer);
            if (this.running) this.signalGroup("SIGKILL");
        }
        return this.exited;
    }
}
