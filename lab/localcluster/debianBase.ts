// The Debian roots that own-root hosts run on (Debian 13 "trixie", Debian unstable "sid"),
// read-only under each host's overlay. Built once per machine with debootstrap and cached under
// /var/cache: a minimal server plus what the lab needs, WITHOUT Open vSwitch and OVN (the program's package step installs those with
// apt-get, from the local repository the base carries: see labRepo.ts).
import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";
import { AptSourceFile, chooseDebianMirror, MIRROR_ENV } from "./aptSources";
import { downloadIntoLabRepo, indexLabRepo, inRoot, useOnlyLabRepo } from "./labRepo";
import { withMachineLock } from "./machineLock";
import { check, describe } from "./run";
import type { OwnRootOs } from "./state";
import { requireTools } from "./tools";

export interface BaseRecipe {
    /** Prefix of the cache directory, e.g. debian13. */
    name: string;
    /** For progress lines: "Debian 13". */
    title: string;
    suite: string;
    /** Packages on top of debootstrap's minbase variant. */
    include: readonly string[];
    /** Packages whose .debs (with dependencies) fill the local apt repository, not installed. */
    repoPackages: readonly string[];
    /** Packages installed from another suite of the same mirror (installFromOtherSuite). */
    otherSuite?: OtherSuitePackages;
}

export interface OtherSuitePackages {
    suite: string;
    /** Installed without the other suite's dependencies: the base's own suite must meet them. */
    packages: readonly string[];
}

/**
 * Bump when the build steps change in a way that changes the result: the cache directory's name
 * hashes it with the recipe, so an old base is never mistaken for a new one.
 */
const BUILD_STEPS_VERSION = 1;

/**
 * What every own-root host gets on top of debootstrap's minbase: a minimal server plus what the
 * lab and the node side of ovn-kubernetes call on a host.
 */
const HOST_PACKAGES = [
    "openssh-server", // every host is reached over SSH
    "iproute2",
    "iputils-ping",
    "ethtool",
    "netcat-openbsd",
    "netbase",
    "nftables",
    "iptables", // ovnkube-node calls /usr/sbin/iptables
    "procps",
    "util-linux",
    "kmod",
    "ca-certificates",
    "containernetworking-plugins", // Debian's CNI plugins in /usr/lib/cni: bridge, host-local, loopback
    "apt-utils", // apt-ftparchive indexes the local repository
    // As on Debian's and Ubuntu's cloud images (cloud-init is Python). OVS's packages pull it in
    // otherwise, and every host's up then byte-compiles its standard library: about 10 s of CPU.
    "python3",
] as const;

/** The local repository's packages: the program's package step installs them (labRepo.ts). */
const OVS_OVN_PACKAGES = ["openvswitch-switch", "openvswitch-common", "ovn-central", "ovn-host", "ovn-common"] as const;

/** What a host that runs the upstream kubelet has besides its runtime: conntrack, which ovnkube v1.3's node calls. */
const KUBELET_HOST_PACKAGES = ["conntrack"] as const;

/**
 * The container runtime a real kubelet drives: containerd 2.1 (with its `ctr`) and runc 1.3.
 * Kubelet v1.36 needs containerd 2; Debian 13 has 1.7, so its hosts get Debian unstable's, which
 * need glibc 2.38 at most (Debian 13 has 2.41) and libseccomp2.
 */
const CONTAINER_RUNTIME_PACKAGES = ["containerd", "runc"] as const;

/** The base the lab's images are written from (node/images.ts) has busybox-static for the pause and workload images. */
const IMAGE_SOURCE_PACKAGES = ["busybox-static"] as const;

/**
 * The base of each system whose hosts run on their own root, each able to run the upstream
 * kubelet. Debian 13 carries OVS 3.5 / OVN 25.03 (too old for ovnkube: the refusal tests) and
 * unstable's container runtime; Debian unstable OVS 4.0 / OVN 26.03, whose OVN_Northbound 7.18 is
 * what ovnkube v1.2 and v1.3 need (7.12 or newer).
 */
export const DEBIAN_BASES: Readonly<Record<OwnRootOs, BaseRecipe>> = {
    debian13: {
        name: "debian13",
        title: "Debian 13",
        suite: "trixie",
        include: [...HOST_PACKAGES, ...KUBELET_HOST_PACKAGES],
        repoPackages: OVS_OVN_PACKAGES,
        otherSuite: { suite: "sid", packages: CONTAINER_RUNTIME_PACKAGES },
    },
    "debian-sid": {
        name: "debian-sid",
        title: "Debian unstable",
        suite: "sid",
        include: [...HOST_PACKAGES, ...KUBELET_HOST_PACKAGES, ...CONTAINER_RUNTIME_PACKAGES, ...IMAGE_SOURCE_PACKAGES],
        repoPackages: OVS_OVN_PACKAGES,
    },
};

export const DEBIAN13_BASE = DEBIAN_BASES.debian13;
export const DEBIAN_SID_BASE = DEBIAN_BASES["debian-sid"];

/** Machine-wide: the base is the same for every cluster and every checkout of the project. */
export const CACHE_ROOT = "/var/cache/ovn-kubernetes-lab";

/** apt's source files as apt reads them: sources.list, then sources.list.d's *.list and *.sources in name order. */
function readAptSources(etcApt: string): AptSourceFile[] {
    const dir = path.join(etcApt, "sources.list.d");
    const names = fs.existsSync(dir)
        ? fs
              .readdirSync(dir)
              .filter((f) => /\.(list|sources)$/.test(f))
              .sort()
        : [];
    return [path.join(etcApt, "sources.list"), ...names.map((f) => path.join(dir, f))]
        .filter((f) => fs.existsSync(f))
        .map((f) => ({ path: f, text: fs.readFileSync(f, "utf8") }));
}

/**
 * The Debian mirror the bases are bootstrapped from: $OVN_K8S_LAB_MIRROR, else the Debian archive
 * of this machine's apt sources. Not part of the recipe: any mirror serves the same packages.
 */
export function labDebianMirror(env: NodeJS.ProcessEnv = process.env, etcApt = "/etc/apt"): string {
    return chooseDebianMirror(env[MIRROR_ENV], readAptSources(etcApt));
}

/** Short hash of everything that decides the base's content. Pure. */
export function recipeHash(recipe: BaseRecipe): string {
    const text = JSON.stringify({
        v: BUILD_STEPS_VERSION,
        ...recipe,
        include: [...recipe.include].sort(),
        repoPackages: [...recipe.repoPackages].sort(),
        otherSuite: recipe.otherSuite && { ...recipe.otherSuite, packages: [...recipe.otherSuite.packages].sort() },
    });
    return createHash("sha256").update(text).digest("hex").slice(0, 12);
}

/** Where the finished base of `recipe` lives. Pure. */
export function baseDir(recipe: BaseRecipe, cacheRoot = CACHE_ROOT): string {
    return path.join(cacheRoot, `${recipe.name}-${recipeHash(recipe)}`);
}

/**
 * /usr/sbin/policy-rc.d answering 101 ("action forbidden"): the hosts have no init system, and the
 * project's host scripts start OVS and OVN themselves. Without it, package scripts would start
 * daemons at install time, outside anything that tracks them.
 */
const POLICY_RC_D = "#!/bin/sh\n# No init system on this host: daemons are started by the scripts that configure them.\nexit 101\n";

type Progress = (line: string) => void;

/** Runs argv and reports each change of debootstrap's phase ("I: Retrieving…", "I: Unpacking…"); keeps the tail for errors. */
function runReportingPhases(argv: readonly string[], progress: Progress, timeoutMs: number): Promise<void> {
    return new Promise((resolve, reject) => {
        const child = spawn(argv[0], argv.slice(1), { stdio: ["ignore", "pipe", "pipe"] });
        const tail: string[] = [];
        let phase = "";
        let partial = "";
        const started = Date.now();
        const onData = (d: Buffer) => {
            const lines = (partial + d.toString()).split("\n");
            partial = lines.pop() ?? "";
            for (const line of lines) {
                tail.push(line);
                if (tail.length > 30) tail.shift();
                // debootstrap alternates "Retrieving x" and "Validating x" per package: one phase.
                const verb = /^I: (\S+)/.exec(line)?.[1]?.replace(/^Validating$/, "Retrieving");
                if (verb && verb !== phase) {
                    phase = verb;
                    progress(`  ${line.slice(3)} (${Math.round((Date.now() - started) / 1000)} s)`);
                }
            }
        };
        child.stdout.on("data", onData);
        child.stderr.on("data", onData);
        const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
        child.on("error", (e) => reject(new Error(`${describe(argv)}: ${e.message}`)));
        child.on("close", (code, signal) => {
            clearTimeout(timer);
            if (code === 0) return resolve();
            reject(new Error(`${describe(argv)} failed (${signal ? `killed by ${signal}` : `exit ${code}`}):\n${tail.join("\n")}`));
        });
    });
}

/** What a base must hold to be used; checked before it is published. */
function checkBase(root: string, recipe: BaseRecipe): void {
    const osRelease = fs.readFileSync(path.join(root, "etc/os-release"), "utf8");
    // Unstable names the coming release in os-release; its debian_version says `<codename>/sid`.
    const debianVersion = fs.readFileSync(path.join(root, "etc/debian_version"), "utf8").trim();
    if (!new RegExp(`^VERSION_CODENAME=${recipe.suite}$`, "m").test(osRelease) && !debianVersion.endsWith(`/${recipe.suite}`)) {
        throw new Error(`the built base in ${root} is not ${recipe.suite} (debian_version ${debianVersion}):\n${osRelease}`);
    }
    for (const file of ["usr/sbin/sshd", "usr/sbin/iptables", "usr/lib/cni/bridge", "etc/apt/sources.list", "usr/sbin/policy-rc.d"]) {
        if (!fs.existsSync(path.join(root, file))) throw new Error(`the built base in ${root} lacks /${file}`);
    }
}

/**
 * Per-machine identity must not come from the base: every host writes its own. Also drops the
 * build machine's resolver (the hosts have no DNS; names resolve through each host's /etc/hosts).
 */
function dropMachineIdentity(root: string): void {
    const sshDir = path.join(root, "etc/ssh");
    for (const f of fs.readdirSync(sshDir).filter((f) => f.startsWith("ssh_host_"))) fs.rmSync(path.join(sshDir, f));
    // Empty, as Debian's images ship it: "not yet initialised".
    fs.writeFileSync(path.join(root, "etc/machine-id"), "");
    fs.rmSync(path.join(root, "var/lib/dbus/machine-id"), { force: true });
    fs.rmSync(path.join(root, "etc/resolv.conf"), { force: true });
}

/** Where installFromOtherSuite keeps the other suite's lists and .debs in the root while it runs. */
const OTHER_SUITE_DIR = "/tmp/lab-other-suite";

/**
 * Installs `other.packages` from another suite of `mirror` into the root. Only their own .debs come
 * from it, downloaded with an apt configuration of their own (sources and lists in
 * OTHER_SUITE_DIR); the root's apt, which knows only its own suite, installs them. So a dependency
 * that suite cannot meet stops the build, rather than pulling the other suite's libraries in.
 */
async function installFromOtherSuite(root: string, mirror: string, other: OtherSuitePackages): Promise<string[]> {
    const stage = path.join(root, OTHER_SUITE_DIR);
    const inStage = (p: string) => path.posix.join(OTHER_SUITE_DIR, p);
    for (const dir of ["lists", "sources.list.d", "debs"]) fs.mkdirSync(path.join(stage, dir), { recursive: true });
    fs.writeFileSync(path.join(stage, "sources.list"), `deb ${mirror} ${other.suite} main\n`);
    const options = {
        "Dir::Etc::SourceList": inStage("sources.list"),
        "Dir::Etc::SourceParts": inStage("sources.list.d"),
        "Dir::State::Lists": inStage("lists"),
        "Acquire::Languages": "none",
        // The Release's signature is checked, not its Valid-Until, as debootstrap does for the bases:
        // a mirror's copy of unstable can be older than the week it declares itself valid for.
        "Acquire::Check-Valid-Until": "false",
    };
    const otherApt = ["apt-get", "-q", ...Object.entries(options).flatMap(([k, v]) => ["-o", `${k}=${v}`])];
    const timeoutMs = 10 * 60_000;
    try {
        await inRoot(root, [...otherApt, "update"], { timeoutMs });
        await inRoot(root, ["env", "-C", inStage("debs"), ...otherApt, "download", ...other.packages], { timeoutMs });
        const debs = fs.readdirSync(path.join(stage, "debs")).filter((f) => f.endsWith(".deb"));
        // Without Recommends, as debootstrap installs its --include.
        const install = ["apt-get", "install", "-y", "-q", "--no-install-recommends", ...debs.map((f) => inStage(`debs/${f}`))];
        await inRoot(root, install, { timeoutMs });
        return debs;
    } finally {
        fs.rmSync(stage, { recursive: true, force: true });
    }
}

async function build(recipe: BaseRecipe, mirror: string, dir: string, progress: Progress): Promise<void> {
    const started = Date.now();
    const elapsed = () => `${Math.round((Date.now() - started) / 1000)} s`;
    progress(`building ${recipe.title} base (1-2 min, cached afterwards) in ${dir} from ${mirror}`);
    // In a private mount namespace: the /proc and /sys debootstrap mounts in the target die with it.
    await runReportingPhases(
        [
            "unshare",
            "--mount",
            "--propagation",
            "private",
            "debootstrap",
            "--variant=minbase",
            `--include=${recipe.include.join(",")}`,
            recipe.suite,
            dir,
            mirror,
        ],
        progress,
        15 * 60_000,
    );
    // Before anything else is installed: no package script may start a daemon.
    fs.writeFileSync(path.join(dir, "usr/sbin/policy-rc.d"), POLICY_RC_D, { mode: 0o755 });
    if (recipe.otherSuite) {
        progress(`  installing ${recipe.otherSuite.packages.join(", ")} from ${recipe.otherSuite.suite} (${elapsed()})`);
        progress(`  installed ${(await installFromOtherSuite(dir, mirror, recipe.otherSuite)).join(", ")} (${elapsed()})`);
    }
    // debootstrap keeps the .debs it installed; they are not part of the repository.
    await inRoot(dir, ["apt-get", "clean"]);
    progress(`  downloading ${recipe.repoPackages.join(", ")} and their dependencies into the local apt repository (${elapsed()})`);
    const debs = await downloadIntoLabRepo(dir, recipe.repoPackages);
    progress(`  indexing ${debs.length} packages; apt's only source becomes the local repository (${elapsed()})`);
    await indexLabRepo(dir);
    await useOnlyLabRepo(dir);
    dropMachineIdentity(dir);
    checkBase(dir, recipe);
    progress(`${recipe.title} base built in ${elapsed()}`);
}

/** Removes a directory tree without ever crossing into another filesystem mounted below it. */
async function removeTree(dir: string): Promise<void> {
    if (fs.existsSync(dir)) await check(["rm", "-rf", "--one-file-system", "--", dir]);
}

export interface EnsureBaseOptions {
    cacheRoot?: string;
    /** Receives one line per build phase (default: standard error). */
    progress?: Progress;
}

/**
 * The cached base of `recipe`, built first when missing. Built into a temporary directory and
 * renamed into place, so the cache holds complete bases only (and a crash leaves a `.partial-<pid>`
 * directory that the next build removes); a lock serialises builders, and a
 * builder that waited finds the base another one finished.
 */
export async function ensureDebianBase(recipe: BaseRecipe = DEBIAN13_BASE, opts: EnsureBaseOptions = {}): Promise<string> {
    const cacheRoot = opts.cacheRoot ?? CACHE_ROOT;
    const progress = opts.progress ?? ((line: string) => process.stderr.write(`${line}\n`));
    const dir = baseDir(recipe, cacheRoot);
    if (fs.existsSync(dir)) return dir;
    const mirror = labDebianMirror();
    await requireTools(
        ["debootstrap", "unshare", "chroot", "flock"],
        `needed to build the ${recipe.title} base: apt-get install -y debootstrap util-linux coreutils (scripts/install-os-packages.sh installs them)`,
    );
    fs.mkdirSync(cacheRoot, { recursive: true, mode: 0o755 });
    return withMachineLock(
        `${dir}.lock`,
        async () => {
            if (fs.existsSync(dir)) return dir;
            // Only the lock holder builds, so any other partial base is a crashed build's remains. A
            // crashed builder's children may still write into theirs: ours has its own name, and
            // removing theirs is best effort (the next build tries again).
            const partial = `${dir}.partial-${process.pid}`;
            const prefix = `${path.basename(dir)}.partial-`;
            for (const stale of fs.readdirSync(cacheRoot).filter((f) => f.startsWith(prefix))) {
                await removeTree(path.join(cacheRoot, stale)).catch(() => undefined);
            }
            try {
                await build(recipe, mirror, partial, progress);
            } catch (e) {
                await removeTree(partial);
                throw new Error(`building the ${recipe.title} base failed: ${(e as Error).message}`);
            }
            fs.renameSync(partial, dir);
            return dir;
        },
        { onWait: () => progress(`waiting for another process that is building ${dir}`) },
    );
}
