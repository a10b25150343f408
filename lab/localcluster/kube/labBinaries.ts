// The lab's binaries: each release's directory (labReleases.ts: ../shared/k8s-lab/..., or
// $OVN_K8S_LAB_BIN/<release>) holds them xz-compressed, listed with their SHA-256 in SHA256SUMS.
// They are unpacked once into a machine-wide cache whose directories are named by that hash, so
// a file found there was verified when it was written, several clusters and test files share one
// copy, releases never meet each other's binaries, and new binaries never meet stale ones.
import { spawn } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";
import {
    DEFAULT_OVN_KUBERNETES_RELEASE,
    KUBERNETES_RELEASE,
    LAB_BIN_ENV,
    labSourceDir,
    ovnKubernetesLabRelease,
    type LabBinary,
    type LabRelease,
} from "../labReleases";

export { LAB_BINARIES, type LabBinary } from "../labReleases";

/** Overrides the machine-wide cache of unpacked binaries. */
export const LAB_CACHE_ENV = "OVN_K8S_LAB_CACHE";

const DEFAULT_CACHE = "/var/cache/ovn-kubernetes-lab/bin";

const HOW_TO_GET = (release: LabRelease, dir: string) =>
    `put ${release.binaries.join(", ")} from ${release.upstream}, each xz-compressed as <name>.xz, with a SHA256SUMS of the ` +
    `uncompressed files, into ${dir}, or point ${LAB_BIN_ENV} at a directory holding them in ${release.name}/`;

/** The release a binary comes from when none is named: the control plane's Kubernetes, else ovn-kubernetes' default. */
export function defaultReleaseOf(name: LabBinary): LabRelease {
    return KUBERNETES_RELEASE.binaries.includes(name) ? KUBERNETES_RELEASE : ovnKubernetesLabRelease(DEFAULT_OVN_KUBERNETES_RELEASE);
}

export function labCacheDir(): string {
    return path.resolve(process.env[LAB_CACHE_ENV] || DEFAULT_CACHE);
}

/** Parses `sha256  name` lines (sha256sum's format, text or binary mode). */
export function parseSha256Sums(text: string): Map<string, string> {
    const sums = new Map<string, string>();
    for (const line of text.split("\n")) {
        const m = /^([0-9a-f]{64}) [ *](.+)$/.exec(line.trim());
        if (m) sums.set(m[2], m[1]);
    }
    return sums;
}

function expectedSha256(release: LabRelease, source: string, name: LabBinary): string {
    const sumsFile = path.join(source, "SHA256SUMS");
    if (!fs.existsSync(sumsFile)) throw new Error(`missing ${sumsFile}: ${HOW_TO_GET(release, source)}`);
    const sha = parseSha256Sums(fs.readFileSync(sumsFile, "utf8")).get(name);
    if (!sha) throw new Error(`${sumsFile} lists no ${name}: ${HOW_TO_GET(release, source)}`);
    return sha;
}

/** `xz -dc src > dest` without a shell; resolves with the SHA-256 of what was written. */
function unxz(src: string, dest: string): Promise<string> {
    return new Promise((resolve, reject) => {
        const out = fs.openSync(dest, "w", 0o600);
        const hash = createHash("sha256");
        const child = spawn("xz", ["-dc", "--", src], { stdio: ["ignore", "pipe", "pipe"] });
        let err = "";
        let failed = false;
        child.stderr.on("data", (d: Buffer) => (err += d.toString()));
        child.stdout.on("data", (d: Buffer) => {
            hash.update(d);
            try {
                fs.writeSync(out, d);
            } catch (e) {
                failed = true;
                child.kill();
                reject(new Error(`cannot write ${dest}: ${(e as Error).message}`));
            }
        });
        child.on("error", (e) => {
            fs.closeSync(out);
            reject(new Error(`cannot run xz (apt-get install -y xz-utils): ${e.message}`));
        });
        child.on("close", (code) => {
            fs.closeSync(out);
            if (failed) return;
            if (code !== 0) return reject(new Error(`xz -dc ${src} failed (exit ${code}): ${err.trim()}`));
            resolve(hash.digest("hex"));
        });
    });
}

/** The path of a verified, executable copy of one binary of `release`, unpacking it on first use. */
export async function labBinary(name: LabBinary, release: LabRelease = defaultReleaseOf(name)): Promise<string> {
    const source = labSourceDir(release);
    const sha = expectedSha256(release, source, name);
    const dir = path.join(labCacheDir(), sha);
    const target = path.join(dir, name);
    if (fs.existsSync(target)) return target;

    const compressed = path.join(source, `${name}.xz`);
    if (!fs.existsSync(compressed)) throw new Error(`missing ${compressed}: ${HOW_TO_GET(release, source)}`);
    fs.mkdirSync(dir, { recursive: true, mode: 0o755 });
    // Unpacked beside the target and renamed into place: a reader never sees half a file, and
    // two processes unpacking at once each rename a complete copy.
    const tmp = `${target}.${randomBytes(6).toString("hex")}.tmp`;
    try {
        const got = await unxz(compressed, tmp);
        if (got !== sha) {
            throw new Error(
                `${compressed} unpacks to SHA-256 ${got}, but ${path.join(source, "SHA256SUMS")} says ${sha}: the file is damaged or not the listed build; ${HOW_TO_GET(release, source)}`,
            );
        }
        fs.chmodSync(tmp, 0o755);
        fs.renameSync(tmp, target);
    } finally {
        fs.rmSync(tmp, { force: true });
    }
    return target;
}

/** Several binaries at once (unpacked in parallel: xz is single-threaded per file). */
export async function labBinaries<N extends LabBinary>(names: readonly N[], release?: LabRelease): Promise<Record<N, string>> {
    const paths = await Promise.all(names.map((n) => labBinary(n, release)));
    return Object.fromEntries(names.map((n, i) => [n, paths[i]])) as Record<N, string>;
}
