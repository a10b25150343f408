// The "machine" of a host: a long-lived process that holds the host's network namespace plus a
// private mount and UTS namespace, with /run a fresh tmpfs and the host's own hostname. Two kinds:
// - a Debian 12 host shares this machine's root filesystem: every OVS/OVN directory is a bind
//   mount of a per-host directory, so each daemon and CLI run in the host uses its default paths
//   (as ovs-ctl, ovn-ctl and the packages set them) without meeting another host's files;
//   /etc/hostname and /etc/hosts are the host's own too;
// - a Debian 13 or unstable host runs on its own root: an overlay of its cached base (rootfs.ts),
//   pivoted to inside the mount namespace, so the holder, sshd and everything entering the host
//   with nsenter see only that root.
// Either kind can get one directory of this machine bind-mounted read-only at LAB_DIR_MOUNT.
import { spawn } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import type { OwnRoot } from "./rootfs";
import { BUNDLE_ROOT, COMMAND_LOG_DIR } from "@ovn-kubernetes-as-code/cluster/hosts";

/**
 * Directories each host gets its own copy of. Defaults of ovs-lib/ovn-lib on Debian:
 * OVS etcdir/dbdir /etc/openvswitch (conf.db, system-id.conf), OVS logdir /var/log/openvswitch,
 * OVN dbdir /var/lib/ovn, OVN etcdir /etc/ovn, OVN logdir /var/log/ovn; Debian keeps the real
 * conf.db in /var/lib/openvswitch. The rundirs /run/openvswitch and /run/ovn live under /run.
 */
export const PRIVATE_DIRS = [
    "/etc/openvswitch",
    "/var/lib/openvswitch",
    "/var/log/openvswitch",
    "/etc/ovn",
    "/var/lib/ovn",
    "/var/log/ovn",
    // The project's own: the hosts' script bundles and command logs.
    BUNDLE_ROOT,
    COMMAND_LOG_DIR,
    // root's home, as a fresh Debian host has it: this machine's holds its operator's shell
    // start-up files, which bash runs for every command an SSH session starts.
    "/root",
] as const;

/** What Debian's base-files puts in root's home at install. */
const ROOT_DOT_FILES: Record<string, string> = {
    ".bashrc": "/usr/share/base-files/dot.bashrc",
    ".profile": "/usr/share/base-files/dot.profile",
};

/** Makes `dir` root's home as a fresh Debian host has it: mode 0700, base-files' dot files. */
export function freshRootHome(dir: string): void {
    fs.mkdirSync(dir, { recursive: true });
    fs.chmodSync(dir, 0o700);
    for (const [name, source] of Object.entries(ROOT_DOT_FILES)) if (fs.existsSync(source)) fs.copyFileSync(source, path.join(dir, name));
}

/** The project's directories among PRIVATE_DIRS: made on this machine when missing (no package makes them). */
const PROJECT_DIRS = [BUNDLE_ROOT, COMMAND_LOG_DIR];

/**
 * Files each host gets its own copy of: a real host's installer writes its name into both, and
 * tools such as ovs-ctl call `hostname -f`, which fails when the name does not resolve (there is
 * no DNS in the namespaces).
 */
export const PRIVATE_FILES = ["/etc/hostname", "/etc/hosts"] as const;

/**
 * The IKE daemon's configuration, which ovs-monitor-ipsec rewrites (ovnkube.ipsec), where this
 * machine has openvswitch-ipsec: each host starts from a copy of the distribution's, as a fresh
 * host would, and no host meets another's.
 */
export const IPSEC_PATHS = ["/etc/ipsec.conf", "/etc/ipsec.secrets", "/etc/ipsec.d", "/etc/strongswan.d"] as const;
const presentIpsecPaths = (): string[] => IPSEC_PATHS.filter((p) => fs.existsSync(p));

/** /etc/hosts of one host: Debian's 127.0.1.1 line for its own name, then every cluster host. */
export function etcHosts(self: string, hosts: ReadonlyArray<{ name: string; ip: string }>): string {
    return [
        "127.0.0.1\tlocalhost",
        `127.0.1.1\t${self}`,
        ...hosts.map((h) => `${h.ip}\t${h.name}`),
        "::1\tlocalhost ip6-localhost ip6-loopback",
        "",
    ].join("\n");
}

/** Fails early, with the fix, when the machine lacks the packages whose directories we cover. */
export function checkPrivateDirsExist(): void {
    for (const dir of PROJECT_DIRS) fs.mkdirSync(dir, { recursive: true, mode: 0o755 });
    const missing = [...PRIVATE_DIRS, ...PRIVATE_FILES].filter((d) => !fs.existsSync(d));
    if (missing.length > 0) {
        throw new Error(
            `missing ${missing.join(", ")}: install the OVS/OVN packages first ` +
                `(apt-get install -y openvswitch-switch ovn-central ovn-host openssh-server iproute2 ethtool)`,
        );
    }
}

/**
 * Creates the per-host files and directories. The etc directories get the package's symlinks (Debian links
 * /etc/openvswitch/conf.db into /var/lib/openvswitch) but no files: those would be another
 * host's state, e.g. a system-id.conf.
 */
export function prepareHostDirs(hostDir: string, hostname: string, hostsFile: string): void {
    for (const p of presentIpsecPaths()) fs.cpSync(p, path.join(hostDir, p), { recursive: true, preserveTimestamps: true });
    fs.mkdirSync(path.join(hostDir, "etc"), { recursive: true });
    fs.writeFileSync(path.join(hostDir, "etc/hostname"), `${hostname}\n`);
    fs.writeFileSync(path.join(hostDir, "etc/hosts"), hostsFile);
    for (const dir of PRIVATE_DIRS) {
        const mine = path.join(hostDir, dir);
        fs.mkdirSync(mine, { recursive: true });
        if (dir === "/root") freshRootHome(mine);
        if (!dir.startsWith("/etc/")) continue;
        for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
            if (entry.isSymbolicLink()) {
                fs.symlinkSync(fs.readlinkSync(path.join(dir, entry.name)), path.join(mine, entry.name));
            }
        }
    }
}

/** Where a host sees the lab directory given to `up` (read-only): binaries the host's workloads run. */
export const LAB_DIR_MOUNT = "/opt/ovn-kubernetes-lab";

/** A file of a running host as seen from this machine's root namespace, through its holder's root. */
export function inHostRoot(holderPid: number, file: string): string {
    return `/proc/${holderPid}/root${file}`;
}

// The scripts run inside the new namespaces, with this machine's /bin/sh. Values arrive as
// positional parameters, never inside the text. /run/sshd is sshd's privilege-separation
// directory, which a booted Debian host has.
const BIND_LAB_DIR = `bind_lab_dir() {
  [ -n "$lab" ] || return 0
  mkdir -p "$1$lab_at"
  mount --bind -o ro "$lab" "$1$lab_at"
}`;
const FINISH = `mkdir -p /run/sshd /run/lock
hostname "$name"
echo ready
exec sleep infinity </dev/null >/dev/null 2>&1`;

// Debian 12: this machine's root, with the host's own directories bound over the shared ones.
// The lab directory's mount point is made on this machine's filesystem (an empty directory).
const SHARED_ROOT_SCRIPT = `set -eu
name=$1; hostdir=$2; lab=$3; lab_at=$4; shift 4
${BIND_LAB_DIR}
mount -t tmpfs -o mode=0755 tmpfs /run
for p in "$@"; do mount --bind "$hostdir$p" "$p"; done
bind_lab_dir ""
${FINISH}`;

// Own root (Debian 13, unstable): the overlay becomes the root. /proc is a new mount of the one PID namespace all
// hosts share, /sys the network namespace's own (\`ip netns exec\` mounted it), /dev the machine's with
// a private /dev/shm. \`pivot_root . .\` stacks the old root under the new one and \`umount -l .\`
// drops it, so nothing of this machine's filesystem stays reachable. Then the root is made
// shared, as on a host booted by systemd: mounts made later in namespaces below it (a pod's
// mount namespace, \`ip netns add\`) propagate as there.
const OWN_ROOT_SCRIPT = `set -eu
name=$1; base=$2; upper=$3; work=$4; root=$5; lab=$6; lab_at=$7; containerd=$8
${BIND_LAB_DIR}
mount -t overlay overlay -o "lowerdir=$base,upperdir=$upper,workdir=$work" "$root"
mkdir -p "$root/var/lib/containerd"
mount --bind "$containerd" "$root/var/lib/containerd"
mount -t proc proc "$root/proc"
mount --rbind /sys "$root/sys"
mount --rbind /dev "$root/dev"
mount -t tmpfs -o mode=1777,nosuid,nodev tmpfs "$root/dev/shm"
mount -t tmpfs -o mode=0755 tmpfs "$root/run"
bind_lab_dir "$root"
cd "$root"
pivot_root . .
umount -l .
cd /
mount --make-rshared /
${FINISH}`;

/** The root filesystem a holder sets up: this machine's with per-host directories, or an own root. */
export type HolderRoot = { kind: "shared"; hostDir: string } | { kind: "own"; root: OwnRoot };

/** The holder script and its positional parameters. Pure but for which IPSEC_PATHS this machine has. */
export function holderCommand(hostname: string, root: HolderRoot, labDir = ""): string[] {
    if (root.kind === "shared") {
        return [
            "/bin/sh",
            "-c",
            SHARED_ROOT_SCRIPT,
            "holder",
            hostname,
            root.hostDir,
            labDir,
            LAB_DIR_MOUNT,
            ...PRIVATE_DIRS,
            ...PRIVATE_FILES,
            ...presentIpsecPaths(),
        ];
    }
    const r = root.root;
    return ["/bin/sh", "-c", OWN_ROOT_SCRIPT, "holder", hostname, r.base, r.upper, r.work, r.merged, labDir, LAB_DIR_MOUNT, r.containerd];
}

/** Starts the holder in `netns` and resolves with its pid once its mounts and hostname are in place. */
export function startHolder(netns: string, hostname: string, root: HolderRoot, labDir?: string): Promise<number> {
    return new Promise((resolve, reject) => {
        // `ip netns exec` enters the network namespace; unshare adds private mount and UTS
        // namespaces and then execs the script in place, so the spawned pid becomes the holder.
        const child = spawn(
            "ip",
            [
                "netns",
                "exec",
                netns,
                "unshare",
                "--mount",
                "--uts",
                "--propagation",
                "private",
                "--",
                ...holderCommand(hostname, root, labDir),
            ],
            // detached: its own session, so a Ctrl-C in the terminal that ran `up` does not end the host.
            { detached: true, stdio: ["ignore", "pipe", "pipe"] },
        );
        let out = "";
        let err = "";
        const timer = setTimeout(() => fail(new Error(`host ${hostname}: holder did not start within 10 s`)), 10_000);
        const done = () => {
            clearTimeout(timer);
            child.stdout.destroy();
            child.stderr.destroy();
            child.removeAllListeners();
            child.unref();
        };
        const fail = (e: Error) => {
            done();
            reject(e);
        };
        child.on("error", (e) => fail(new Error(`host ${hostname}: cannot start holder: ${e.message}`)));
        child.on("exit", (code) => fail(new Error(`host ${hostname}: holder exited (${code}): ${err.trim()}`)));
        child.stderr.on("data", (d: Buffer) => (err += d.toString()));
        child.stdout.on("data", (d: Buffer) => {
            out += d.toString();
            if (out.includes("ready\n")) {
                done();
                resolve(child.pid!);
            }
        });
    });
}
