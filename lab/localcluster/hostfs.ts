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

/** A file's text, or `fallback` when it cannot be read (not there yet, gone). */
export function readTextOr(file: string, fallback = ""): string {
    try {
        return fs.readFileSync(file, "utf8");
    } catch {
        return fallback;
    }
}
