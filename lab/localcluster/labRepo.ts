// The local apt repository inside an own-root Debian base. The hosts have no route to any mirror, yet
// the program's package step must install Open vSwitch and OVN with a real `apt-get update` and
// `apt-get install`, as on any server. So the base carries the .deb files of those packages and of
// every dependency the base lacks, indexed as a flat repository, and apt's only source is that
// directory.
import * as fs from "node:fs";
import * as path from "node:path";
import { check, RunOptions } from "./run";

/** Where the repository lives in the host's root. */
export const LAB_APT_DIR = "/srv/lab-apt";

/**
 * The base's only apt source. `trusted=yes`: the index is made locally from packages apt itself
 * downloaded and verified against Debian's signed archive, and nothing on the host signs it again.
 */
export const LAB_APT_SOURCE = `deb [trusted=yes] file:${LAB_APT_DIR} ./`;

/** Runs argv inside the root, in a private mount namespace so nothing mounted there can outlive the call. */
export function inRoot(root: string, argv: readonly string[], opts: RunOptions = {}): Promise<string> {
    return check(["unshare", "--mount", "--propagation", "private", "chroot", root, ...argv], opts);
}

/**
 * Downloads `packages` and every dependency the root lacks (resolved by the root's own apt against
 * the mirror it was bootstrapped from, Recommends included as `apt-get install` would) into the
 * repository directory. Run before the base is pointed at the repository.
 */
export async function downloadIntoLabRepo(root: string, packages: readonly string[]): Promise<string[]> {
    const repo = path.join(root, LAB_APT_DIR);
    fs.mkdirSync(path.join(repo, "partial"), { recursive: true });
    await inRoot(root, ["apt-get", "install", "--download-only", "-y", "-q", "-o", `Dir::Cache::Archives=${LAB_APT_DIR}`, ...packages], {
        timeoutMs: 10 * 60_000,
    });
    fs.rmSync(path.join(repo, "partial"), { recursive: true, force: true });
    fs.rmSync(path.join(repo, "lock"), { force: true });
    const debs = fs
        .readdirSync(repo)
        .filter((f) => f.endsWith(".deb"))
        .sort();
    const missing = packages.filter((p) => !debs.some((d) => d.startsWith(`${p}_`)));
    if (missing.length > 0)
        throw new Error(`the local apt repository lacks ${missing.join(", ")} after the download: check that the mirror carries them`);
    return debs;
}

/** Writes the flat repository's Packages and Release indexes with apt-ftparchive (apt-utils, in the root). */
export async function indexLabRepo(root: string): Promise<void> {
    const repo = path.join(root, LAB_APT_DIR);
    // Run from inside the directory: a flat repository's Filename fields are relative to it.
    const ftparchive = (what: string) => inRoot(root, ["env", "-C", LAB_APT_DIR, "apt-ftparchive", what, "."]);
    fs.writeFileSync(path.join(repo, "Packages"), await ftparchive("packages"));
    // Release lists the checksums of the files beside it: written after, so it does not list itself.
    const release = await ftparchive("release");
    fs.writeFileSync(path.join(repo, "Release"), release);
}

/** Makes the repository apt's only source, fetches its lists once and drops the downloaded archives. */
export async function useOnlyLabRepo(root: string): Promise<void> {
    fs.writeFileSync(path.join(root, "etc/apt/sources.list"), `${LAB_APT_SOURCE}\n`);
    const sourcesD = path.join(root, "etc/apt/sources.list.d");
    for (const f of fs.existsSync(sourcesD) ? fs.readdirSync(sourcesD) : [])
        fs.rmSync(path.join(sourcesD, f), { recursive: true, force: true });
    const lists = path.join(root, "var/lib/apt/lists");
    for (const f of fs.existsSync(lists) ? fs.readdirSync(lists) : []) fs.rmSync(path.join(lists, f), { recursive: true, force: true });
    await inRoot(root, ["apt-get", "update", "-q"], { timeoutMs: 5 * 60_000 });
    await inRoot(root, ["apt-get", "clean"]);
}
