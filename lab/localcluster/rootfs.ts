// A host's own root filesystem: an overlay whose lower layer is the shared, read-only cached Debian
// base and whose upper layer is the host's own directory, so every host starts from the same
// installed system and everything it changes (packages, /etc, logs) stays its own. The overlay is
// mounted only inside the host's private mount namespace and disappears with it.
//
// The host's own files (name, hosts, machine-id, SSH keys) are written into the upper layer before
// the overlay is mounted: writing into an upper layer behind a mounted overlay's back is undefined.
import { randomBytes } from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";

export interface OwnRoot {
    /** The read-only lower layer: the cached base. */
    base: string;
    /** The host's changes. */
    upper: string;
    /** overlayfs's scratch directory, on the same filesystem as upper. */
    work: string;
    /** Mount point of the merged root (mounted only inside the host's mount namespace). */
    merged: string;
    /**
     * The host's /var/lib/containerd, on this machine's filesystem: containerd's overlay
     * snapshots must not sit on the host's overlay root (overlayfs on overlayfs).
     */
    containerd: string;
}

// overlayfs takes its layers as one comma-separated option string, where ',' ':' and '\' are syntax.
const OVERLAY_SAFE_PATH = /^\/[A-Za-z0-9._+@/-]*$/;

/** The host's /var/lib/containerd on this machine (see OwnRoot.containerd). */
export const containerdDirOf = (hostDir: string): string => path.join(hostDir, "containerd");

/** Where a host's layers live under its directory. Pure, apart from checking the paths. */
export function ownRootLayout(hostDir: string, base: string): OwnRoot {
    const root = {
        base,
        upper: path.join(hostDir, "upper"),
        work: path.join(hostDir, "work"),
        merged: path.join(hostDir, "root"),
        containerd: containerdDirOf(hostDir),
    };
    for (const p of Object.values(root)) {
        if (!OVERLAY_SAFE_PATH.test(p)) {
            throw new Error(
                `path ${JSON.stringify(p)} cannot be an overlayfs layer (only letters, digits and . _ + @ / - are allowed): move the project or the cache to a plainer path`,
            );
        }
    }
    return root;
}

/**
 * Creates `dir` (absolute, as seen in the host) and its missing parents in the upper layer, each
 * with the owner and mode of the base's directory of that name: an upper directory's attributes
 * win over the lower one's, so a 0755 /root made here would open root's home to everyone.
 */
function mkdirLikeBase(root: OwnRoot, dir: string, modeIfNew: number): void {
    let rel = "";
    for (const part of ["", ...dir.split("/").filter(Boolean)]) {
        rel = path.join(rel, part);
        const target = path.join(root.upper, rel);
        if (fs.existsSync(target)) continue;
        const lower = fs.statSync(path.join(root.base, rel), { throwIfNoEntry: false });
        fs.mkdirSync(target);
        fs.chmodSync(target, lower ? lower.mode & 0o7777 : modeIfNew);
        if (lower) fs.chownSync(target, lower.uid, lower.gid);
    }
}

/**
 * The path in the upper layer of `file` (absolute, as seen in the host), with its parent
 * directories made as in the base (new ones 0700). For writing before the overlay is mounted.
 */
export function upperFile(root: OwnRoot, file: string): string {
    mkdirLikeBase(root, path.dirname(file), 0o700);
    return path.join(root.upper, file);
}

/** Makes the layers' directories; the upper layer's top directory is the host's "/" and gets the base's mode. */
export function createLayers(root: OwnRoot): void {
    fs.mkdirSync(path.dirname(root.upper), { recursive: true });
    mkdirLikeBase(root, "/", 0o755);
    fs.mkdirSync(root.work, { recursive: true });
    fs.mkdirSync(root.merged, { recursive: true });
    fs.mkdirSync(root.containerd, { recursive: true, mode: 0o711 });
}

export interface HostIdentity {
    hostname: string;
    /** Text of /etc/hosts. */
    hostsFile: string;
    /** The public key line that logs in as root. */
    authorizedKey: string;
}

/** What an installer writes on a new machine: its name, hosts, a fresh machine-id and root's authorized key. */
export function writeHostIdentity(root: OwnRoot, id: HostIdentity): void {
    fs.writeFileSync(upperFile(root, "/etc/hostname"), `${id.hostname}\n`);
    fs.writeFileSync(upperFile(root, "/etc/hosts"), id.hostsFile);
    fs.writeFileSync(upperFile(root, "/etc/machine-id"), `${randomBytes(16).toString("hex")}\n`, { mode: 0o444 });
    fs.writeFileSync(upperFile(root, "/root/.ssh/authorized_keys"), `${id.authorizedKey}\n`, { mode: 0o600 });
}
