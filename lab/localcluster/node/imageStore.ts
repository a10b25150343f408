// The lab nodes' images, preloaded as kind's node image carries its own: one containerd root per
// set of images, made once by importing the archives on a node and kept machine-wide, then given
// to every node of every lab as hard links. Importing a 570 MB image writes it twice (content
// blobs and unpacked layers) on every node, which took a tenth of an ovnkube lab's CPU. Links are
// safe because containerd never writes a blob or a committed snapshot in place (it unlinks what it
// collects; a container's changes go to its own upper directory); its bolt databases are written,
// so each node gets copies of those.
import * as fs from "node:fs";
import * as path from "node:path";
import { CACHE_ROOT } from "../debianBase";
import { hostArgv } from "../exec";
import { containerdDirOf } from "../rootfs";
import { check } from "../run";
import type { LocalHost } from "../state";
import { cached, digestOf } from "./images";
import { importImages, startContainerd, stopContainerd } from "./start";

const STORES = path.join(CACHE_ROOT, "containerd-stores");

/** The files containerd writes in place: its metadata and the snapshotter's, both bolt databases. */
const WRITTEN_IN_PLACE = /\.db$/;

/** `from` into the empty or absent `to`: directories made anew, files linked, written-in-place files copied. */
async function linkTree(from: string, to: string): Promise<void> {
    fs.mkdirSync(to, { recursive: true, mode: 0o711 });
    await check(["cp", "-a", "--link", "--preserve=xattr", "--", `${from}/.`, `${to}/`]);
    for (const file of fs.readdirSync(from, { recursive: true, encoding: "utf8" }).filter((f) => WRITTEN_IN_PLACE.test(f)))
        await check(["cp", "-a", "--remove-destination", "--", path.join(from, file), path.join(to, file)]);
}

/**
 * The store of `archives` for this containerd: archive names carry digests of what each image was
 * built from. Not keyed by the host's system: the store is containerd's own data, the same for the
 * same containerd on any base (Debian 13 and unstable hosts run the same one).
 */
function storeDir(archives: readonly string[], containerdVersion: string): string {
    return path.join(STORES, digestOf({ archives: archives.map((a) => path.basename(a)), containerdVersion }));
}

/**
 * Gives each host's containerd, not yet started, the images of `archives` (paths as the hosts
 * see them). The first lab on a machine imports them on `hosts[0]` and keeps the result as the
 * store. Returns false, having done nothing, when the hosts' directories lie on another
 * filesystem than the store: the caller imports on every node instead.
 */
export async function preloadImages(hosts: readonly LocalHost[], archives: readonly string[], logDir: string): Promise<boolean> {
    fs.mkdirSync(STORES, { recursive: true });
    const dirs = hosts.map((h) => containerdDirOf(h.dir));
    if (dirs.some((d) => fs.statSync(d).dev !== fs.statSync(STORES).dev)) return false;
    const version = (await check(hostArgv(hosts[0], ["containerd", "--version"]))).trim();
    const store = await cached(storeDir(archives, version), async (partial) => {
        const containerd = await startContainerd(hosts[0], path.join(logDir, hosts[0].name));
        try {
            await importImages(hosts[0], archives);
        } finally {
            await stopContainerd(containerd);
        }
        await linkTree(dirs[0], partial);
    });
    for (const dir of dirs) if (fs.readdirSync(dir).length === 0) await linkTree(store, dir);
    return true;
}
