// The images a real kubelet's containerd runs in the lab, built here from the Debian unstable base
// (no registry is reachable) and cached machine-wide like the bases: the pause image, a busybox
// workload image, and per ovn-kubernetes release an image under the exact reference the program's
// manifests name, holding a Debian root with Open vSwitch and OVN's user-space tools and the
// release's binaries where the upstream image keeps them.
import { createHash } from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";
import { labBinaries } from "../kube/labBinaries";
import { baseDir, CACHE_ROOT, DEBIAN_SID_BASE, ensureDebianBase } from "../debianBase";
import { inRoot, LAB_APT_DIR } from "../labRepo";
import { withMachineLock } from "../machineLock";
import { check } from "../run";
import { imagePath, ovnKubernetesLabImage, ovnKubernetesLabRelease, type OvnKubernetesRelease } from "../labReleases";
import { LAYER_TAR_OPTIONS, writeOciArchive, type ImageSpec } from "./oci";

/** Bump when what goes into an image changes without its inputs changing. */
const IMAGES_VERSION = 1;

/** The sandbox image containerd is pinned to; it runs nothing but a shell waiting for the end. */
export const PAUSE_IMAGE = "localhost/ovn-kubernetes-lab/pause:1";
/** The demo's workload image: busybox (sh, ping, nc, wget …). */
export const WORKLOAD_IMAGE = "localhost/ovn-kubernetes-lab/busybox:1";

/** The pause container's process: waits, reaps what it started, and ends on TERM or INT at once. */
const PAUSE_SCRIPT = "trap 'exit 0' TERM INT; while :; do sleep 3600 & wait $!; done";

/** Where the image archives live: one file per image, named by what it was built from. */
const IMAGES_CACHE = path.join(CACHE_ROOT, "images");

export interface LabImageArchive {
    ref: string;
    /** The OCI archive on this machine. */
    archive: string;
}

const removeTree = (dir: string) => check(["rm", "-rf", "--one-file-system", "--", dir]);

/** A short digest of `value` and this module's recipe version: the name of what is cached for it. */
export function digestOf(value: unknown): string {
    return createHash("sha256")
        .update(JSON.stringify({ v: IMAGES_VERSION, value }))
        .digest("hex")
        .slice(0, 12);
}

/**
 * `target` (a file or directory), built by `build` into `<target>.partial-<pid>` and renamed when
 * complete, under a machine-wide lock: the cache holds finished builds only.
 */
export async function cached(target: string, build: (partial: string) => Promise<void>): Promise<string> {
    if (fs.existsSync(target)) return target;
    fs.mkdirSync(path.dirname(target), { recursive: true });
    return withMachineLock(`${target}.lock`, async () => {
        if (fs.existsSync(target)) return target;
        const partial = `${target}.partial-${process.pid}`;
        await removeTree(partial);
        try {
            await build(partial);
            fs.renameSync(partial, target);
        } catch (e) {
            await removeTree(partial);
            throw e;
        }
        return target;
    });
}

/** The archive `name-<hash>.tar`, made by `make` with a scratch directory unless cached. */
function cachedArchive(name: string, inputs: unknown, make: (scratch: string, archive: string) => Promise<void>): Promise<string> {
    // Archives written another way are other archives.
    return cached(path.join(IMAGES_CACHE, `${name}-${digestOf({ inputs, layer: LAYER_TAR_OPTIONS })}.tar`), async (partial) => {
        const scratch = `${partial}.work`;
        fs.mkdirSync(scratch);
        try {
            await make(scratch, partial);
        } finally {
            await removeTree(scratch);
        }
    });
}

/** busybox-static and a link per applet in /bin, /tmp for what the applets write. */
async function busyboxRoot(base: string, root: string): Promise<void> {
    fs.mkdirSync(path.join(root, "bin"), { recursive: true });
    fs.mkdirSync(path.join(root, "tmp"), { mode: 0o1777 });
    fs.copyFileSync(path.join(base, "usr/bin/busybox"), path.join(root, "bin/busybox"));
    fs.chmodSync(path.join(root, "bin/busybox"), 0o755);
    const applets = (await check([path.join(base, "usr/bin/busybox"), "--list"]))
        .split("\n")
        .filter((a) => /^[a-z0-9_.[-]+$/.test(a) && a !== "busybox");
    for (const a of applets) fs.symlinkSync("busybox", path.join(root, "bin", a));
}

/** The pause and workload images: one busybox layer, two entry points. */
async function busyboxImages(base: string): Promise<LabImageArchive[]> {
    const images: Array<Pick<ImageSpec, "ref" | "entrypoint" | "cmd">> = [
        { ref: PAUSE_IMAGE, entrypoint: ["/bin/sh", "-c", PAUSE_SCRIPT] },
        { ref: WORKLOAD_IMAGE, cmd: ["sh"] },
    ];
    return Promise.all(
        images.map(async (image) => ({
            ref: image.ref,
            archive: await cachedArchive(
                image.ref.replace(/[/:]/g, "_"),
                { base: path.basename(base), image },
                async (scratch, archive) => {
                    const root = path.join(scratch, "root");
                    await busyboxRoot(base, root);
                    await writeOciArchive({ ...image, layers: [root] }, path.join(scratch, "layout"), archive);
                },
            ),
        })),
    );
}

/** What the base has for the node itself and an ovn-kubernetes image does not: the runtime, CNI plugins, docs. */
const NOT_IN_OVN_IMAGE = [
    "usr/bin/containerd",
    "usr/bin/containerd-shim-runc-v2",
    "usr/bin/ctr",
    "usr/sbin/runc",
    "usr/bin/runc",
    "usr/lib/cni",
    "usr/share/doc",
    "usr/share/man",
    "usr/share/locale",
    "usr/share/info",
    "var/cache/apt",
    "var/lib/apt/lists",
    LAB_APT_DIR.slice(1),
];

/**
 * The Debian root of every ovn-kubernetes image (their shared bottom layer): the base with the OVS
 * and OVN packages installed from its own local repository, less NOT_IN_OVN_IMAGE. Cached as a
 * directory beside the archives.
 */
function debianOvnRoot(base: string): Promise<string> {
    const dir = debianOvnRootDir(base);
    return cached(dir, async (partial) => {
        await check(["cp", "-a", "--", base, partial], { timeoutMs: 10 * 60_000 });
        await inRoot(partial, ["apt-get", "install", "-y", "-q", ...DEBIAN_SID_BASE.repoPackages], { timeoutMs: 10 * 60_000 });
        for (const p of NOT_IN_OVN_IMAGE) await removeTree(path.join(partial, p));
    });
}

/** Where debianOvnRoot keeps the root built from `base`. */
const debianOvnRootDir = (base: string) =>
    path.join(
        IMAGES_CACHE,
        `debian-ovn-${digestOf({ base: path.basename(base), packages: DEBIAN_SID_BASE.repoPackages, drop: NOT_IN_OVN_IMAGE })}`,
    );

/**
 * The OVN (`26.03.1`) the lab's ovn-kubernetes images carry, as dpkg recorded ovn-common in their
 * Debian root: what a lab stack running OVN from the image says as ovnkube.imageOvnVersion. The
 * images are built by the lab's `up --kubernetes`, before any stack file is written.
 */
export function labImageOvn(): string {
    const root = debianOvnRootDir(baseDir(DEBIAN_SID_BASE));
    const status = path.join(root, "var/lib/dpkg/status");
    if (!fs.existsSync(status))
        throw new Error(`the lab's ovn-kubernetes images are not built yet (no ${root}): bring the lab up with --kubernetes first`);
    const stanza = fs
        .readFileSync(status, "utf8")
        .split("\n\n")
        .find((s) => /^Package: ovn-common$/m.test(s));
    const version = stanza && /^Version: (?:\d+:)?(\d+\.\d+\.\d+)/m.exec(stanza)?.[1];
    if (!version) throw new Error(`${status} records no ovn-common version`);
    return version;
}

async function ovnKubernetesImage(base: string, release: OvnKubernetesRelease): Promise<LabImageArchive> {
    const r = ovnKubernetesLabRelease(release);
    const bins = await labBinaries(r.binaries, r);
    const ref = ovnKubernetesLabImage(release);
    const debian = await debianOvnRoot(base);
    const archive = await cachedArchive(
        `ovn-kubernetes-${r.version}`,
        { debian: path.basename(debian), ref, bins },
        async (scratch, out) => {
            const root = path.join(scratch, "release");
            for (const name of r.binaries) {
                const target = path.join(root, imagePath(name));
                fs.mkdirSync(path.dirname(target), { recursive: true });
                fs.copyFileSync(bins[name], target);
                fs.chmodSync(target, 0o755);
            }
            await writeOciArchive({ ref, layers: [debian, root] }, path.join(scratch, "layout"), out);
        },
    );
    return { ref, archive };
}

/** The images a lab node runs, built when missing: pause, the workload image and those of `releases`. */
export async function labNodeImages(
    releases: readonly OvnKubernetesRelease[],
    log: (line: string) => void = () => undefined,
): Promise<LabImageArchive[]> {
    const base = await ensureDebianBase(DEBIAN_SID_BASE, { progress: log });
    const started = Date.now();
    const images = [...(await busyboxImages(base))];
    for (const release of releases) images.push(await ovnKubernetesImage(base, release));
    const seconds = (Date.now() - started) / 1000;
    if (seconds > 5) log(`node images ready in ${seconds.toFixed(0)} s (cached in ${IMAGES_CACHE})`);
    return images;
}
