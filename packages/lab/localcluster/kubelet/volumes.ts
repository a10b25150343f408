// A pod's volumes made real on the host before its containers start, as the kubelet's volume
// manager does: hostPath type checks (and the creation the *OrCreate types ask for), emptyDir
// directories, and the files of configMap, secret, downwardAPI and projected volumes written into
// the pod's directory. Rerun periodically, it also refreshes changed ConfigMaps and Secrets and
// renewed tokens; a file that is no longer part of a volume is removed.
import * as fs from "node:fs";
import * as path from "node:path";
import { setupError } from "./errors";
import type { PodAddresses } from "./fieldRef";
import { inHost, mkdirInHost, writeFileInHost } from "./hostfs";
import { fileVolumeKind, volumeSource } from "./mounts";
import type { PodObjects } from "./resolve";
import type { Pod, Volume } from "./types";
import { VolumeFile, volumeFiles } from "./volumeFiles";

export interface VolumeHost {
    holderPid: number;
    rootDir: string;
}

/** What each hostPath type requires of the path, and what the *OrCreate types create when it is missing. */
const HOST_PATH_TYPES: Record<string, { is: (st: fs.Stats) => boolean; what: string; create?: (real: string) => void }> = {
    DirectoryOrCreate: { is: (st) => st.isDirectory(), what: "a directory", create: (real) => fs.mkdirSync(real, { recursive: true, mode: 0o755 }) },
    Directory: { is: (st) => st.isDirectory(), what: "a directory" },
    FileOrCreate: { is: (st) => st.isFile(), what: "a file", create: (real) => fs.writeFileSync(real, "", { mode: 0o644, flag: "a" }) },
    File: { is: (st) => st.isFile(), what: "a file" },
    Socket: { is: (st) => st.isSocket(), what: "a socket file" },
    CharDevice: { is: (st) => st.isCharacterDevice(), what: "a character device" },
    BlockDevice: { is: (st) => st.isBlockDevice(), what: "a block device" },
};

/** The kubelet's hostPath type check (pkg/volume/hostpath checkType), in the host's filesystem. */
export function checkHostPath(h: VolumeHost, v: Volume): void {
    const p = v.hostPath!.path;
    const typeName = v.hostPath!.type ?? "";
    if (typeName === "") return;
    const type = HOST_PATH_TYPES[typeName];
    if (!type) throw setupError(`hostPath ${p}: unknown type ${typeName}`);
    const real = inHost(h.holderPid, p);
    let st: fs.Stats | undefined;
    try {
        st = fs.statSync(real);
    } catch {
        st = undefined;
    }
    if (!st && type.create) return type.create(real);
    if (!st || !type.is(st)) throw setupError(`hostPath type check failed: ${p} is not ${type.what}`);
}

function sameContent(file: string, f: VolumeFile): boolean {
    try {
        return (fs.statSync(file).mode & 0o7777) === f.mode && fs.readFileSync(file).equals(f.data);
    } catch {
        return false;
    }
}

/** Writes the volume's files and removes those it no longer has. */
function syncFiles(h: VolumeHost, dir: string, files: VolumeFile[]): void {
    mkdirInHost(h.holderPid, dir);
    const keep = new Set(files.map((f) => path.posix.normalize(f.path)));
    const base = inHost(h.holderPid, dir);
    for (const f of files) {
        // Unchanged files keep their inode: a reader watching them sees only real changes.
        if (sameContent(path.join(base, f.path), f)) continue;
        writeFileInHost(h.holderPid, path.posix.join(dir, f.path), f.data, f.mode);
    }
    const prune = (rel: string) => {
        for (const e of fs.readdirSync(path.join(base, rel), { withFileTypes: true })) {
            const r = rel ? `${rel}/${e.name}` : e.name;
            if (e.isDirectory()) prune(r);
            else if (!keep.has(r)) fs.rmSync(path.join(base, r), { force: true });
        }
    };
    prune("");
}

/** Sets up (or refreshes) every volume of the pod. */
export function setupVolumes(h: VolumeHost, pod: Pod, objects: PodObjects, addr: PodAddresses, tokens: ReadonlyMap<string, string>): void {
    const uid = pod.metadata!.uid!;
    for (const v of pod.spec?.volumes ?? []) {
        const dir = volumeSource(h.rootDir, uid, v);
        if (v.hostPath) checkHostPath(h, v);
        else if (v.emptyDir) mkdirInHost(h.holderPid, dir, 0o777);
        else if (fileVolumeKind(v)) syncFiles(h, dir, volumeFiles(pod, v, objects, addr, tokens));
    }
}
