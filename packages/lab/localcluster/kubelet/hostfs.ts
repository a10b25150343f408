// The host's files, reached from outside through /proc/<holder>/root. That path enters the
// host's root and mounts, but an absolute symlink met on the way (Debian's /var/run -> /run)
// would be followed from this process's root instead, so symlinks are resolved here against the
// host's root, as a container runtime resolves paths inside a container's root.
import * as fs from "node:fs";
import * as path from "node:path";

const MAX_LINKS = 40;

/** The host's root as this process reaches it. */
export function hostRoot(holderPid: number): string {
    return `/proc/${holderPid}/root`;
}

/**
 * `/proc/<holder>/root/<p>` with every symlink of `p` resolved inside the host. Components that
 * do not exist yet are kept as given (so the result also names a file about to be created).
 */
export function inHost(holderPid: number, p: string): string {
    if (!path.posix.isAbsolute(p)) throw new Error(`host path ${JSON.stringify(p)} is not absolute`);
    const root = hostRoot(holderPid);
    const resolved: string[] = [];
    const todo = p.split("/");
    let links = 0;
    while (todo.length > 0) {
        const part = todo.shift()!;
        if (part === "" || part === ".") continue;
        if (part === "..") {
            resolved.pop();
            continue;
        }
        const candidate = path.posix.join(root, ...resolved, part);
        let st: fs.Stats;
        try {
            st = fs.lstatSync(candidate);
        } catch {
            resolved.push(part, ...todo.filter((t) => t !== "" && t !== "."));
            break;
        }
        if (!st.isSymbolicLink()) {
            resolved.push(part);
            continue;
        }
        if (++links > MAX_LINKS) throw new Error(`too many symlinks resolving ${p} in the host`);
        const target = fs.readlinkSync(candidate);
        if (target.startsWith("/")) resolved.length = 0;
        todo.unshift(...target.split("/"));
    }
    return path.posix.join(root, ...resolved);
}

/** Creates a directory (and its parents) in the host. */
export function mkdirInHost(holderPid: number, dir: string, mode = 0o755): void {
    fs.mkdirSync(inHost(holderPid, dir), { recursive: true, mode });
}

/** Writes a file in the host atomically (temporary file, then rename): readers never see half of it. */
export function writeFileInHost(holderPid: number, file: string, data: string | Buffer, mode = 0o644): void {
    mkdirInHost(holderPid, path.posix.dirname(file));
    const target = inHost(holderPid, file);
    const tmp = `${target}.tmp-${process.pid}`;
    fs.writeFileSync(tmp, data, { mode });
    fs.chmodSync(tmp, mode);
    fs.renameSync(tmp, target);
}

/** Regular files below a host directory, as paths relative to it (sorted; symlinks kept as files). */
export function filesInHost(holderPid: number, dir: string): string[] {
    const base = inHost(holderPid, dir);
    const out: string[] = [];
    const walk = (rel: string) => {
        for (const e of fs.readdirSync(path.posix.join(base, rel), { withFileTypes: true })) {
            const r = rel ? `${rel}/${e.name}` : e.name;
            if (e.isDirectory()) walk(r);
            else out.push(r);
        }
    };
    walk("");
    return out.sort();
}

/** A file's text, or `fallback` when it cannot be read (not there yet, gone). */
export function readTextOr(file: string, fallback = ""): string {
    try {
        return fs.readFileSync(file, "utf8");
    } catch {
        return fallback;
    }
}
