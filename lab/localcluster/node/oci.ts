// OCI image archives written locally (the lab reaches no registry): uncompressed layers made with
// tar from a directory, an image config, a manifest and an index that names the reference, all
// in one OCI layout that `ctr images import` takes. Hand-written because no npm package writes an
// OCI layout without a registry or a container engine; the format is small
// (https://github.com/opencontainers/image-spec/blob/v1.1.0/image-layout.md).
import { createHash } from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";
import { check } from "../run";

export interface Blob {
    digest: string;
    size: number;
}

export interface ImageSpec {
    /** The full reference the image is imported under, e.g. `ghcr.io/ovn-kubernetes/ovn-kubernetes/ovn-kube-ubuntu:release-1.3`. */
    ref: string;
    /** Root directories, bottom layer first. */
    layers: readonly string[];
    entrypoint?: readonly string[];
    cmd?: readonly string[];
}

const MEDIA = {
    layer: "application/vnd.oci.image.layer.v1.tar",
    config: "application/vnd.oci.image.config.v1+json",
    manifest: "application/vnd.oci.image.manifest.v1+json",
};

/** The image config: an uncompressed layer's diff id is its digest. Pure. */
export function imageConfig(spec: Pick<ImageSpec, "entrypoint" | "cmd">, layers: readonly Blob[]): object {
    return {
        architecture: "amd64",
        os: "linux",
        config: {
            Env: ["PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"],
            ...(spec.entrypoint ? { Entrypoint: spec.entrypoint } : {}),
            ...(spec.cmd ? { Cmd: spec.cmd } : {}),
        },
        rootfs: { type: "layers", diff_ids: layers.map((l) => l.digest) },
    };
}

export function imageManifest(config: Blob, layers: readonly Blob[]): object {
    return {
        schemaVersion: 2,
        mediaType: MEDIA.manifest,
        config: { mediaType: MEDIA.config, ...config },
        layers: layers.map((l) => ({ mediaType: MEDIA.layer, ...l })),
    };
}

/** The index: containerd takes the full reference from `io.containerd.image.name`. Pure. */
export function imageIndex(ref: string, manifest: Blob): object {
    const tag = ref.slice(ref.lastIndexOf(":") + 1);
    return {
        schemaVersion: 2,
        manifests: [
            {
                mediaType: MEDIA.manifest,
                ...manifest,
                annotations: { "io.containerd.image.name": ref, "org.opencontainers.image.ref.name": tag },
            },
        ],
    };
}

function sha256File(file: string): string {
    const hash = createHash("sha256");
    const fd = fs.openSync(file, "r");
    try {
        const buf = Buffer.alloc(1 << 20);
        for (let n; (n = fs.readSync(fd, buf, 0, buf.length, null)) > 0;) hash.update(buf.subarray(0, n));
    } finally {
        fs.closeSync(fd);
    }
    return hash.digest("hex");
}

function blobPath(layout: string, digest: string): string {
    return path.join(layout, "blobs", ...digest.split(":"));
}

function putBlob(layout: string, file: string): Blob {
    const digest = `sha256:${sha256File(file)}`;
    const size = fs.statSync(file).size;
    fs.mkdirSync(path.dirname(blobPath(layout, digest)), { recursive: true });
    fs.renameSync(file, blobPath(layout, digest));
    return { digest, size };
}

function putJson(layout: string, value: object): Blob {
    const tmp = path.join(layout, "json.tmp");
    fs.writeFileSync(tmp, JSON.stringify(value));
    return putBlob(layout, tmp);
}

/**
 * How a layer is written: sorted, owned by numeric ids, dated 0, so the same files give the same
 * digest, and a node's containerd stores and unpacks a layer two images share once. `--xattrs`
 * makes GNU tar write pax headers, which by default carry each file's atime and ctime (changed by
 * every read) and a header name with tar's pid: dropped and fixed here.
 */
export const LAYER_TAR_OPTIONS = [
    "--sort=name",
    "--numeric-owner",
    "--mtime=@0",
    "--xattrs",
    "--pax-option=exthdr.name=%d/PaxHeaders/%f,delete=atime,delete=ctime",
] as const;

async function putLayer(layout: string, root: string): Promise<Blob> {
    const tmp = path.join(layout, "layer.tmp");
    await check(["tar", ...LAYER_TAR_OPTIONS, "-C", root, "-cf", tmp, "."], {
        timeoutMs: 10 * 60_000,
    });
    return putBlob(layout, tmp);
}

/** Writes the image as an OCI layout in `layout` and packs it into the archive `archive`. */
export async function writeOciArchive(spec: ImageSpec, layout: string, archive: string): Promise<void> {
    fs.rmSync(layout, { recursive: true, force: true });
    fs.mkdirSync(layout, { recursive: true });
    const layers: Blob[] = [];
    for (const root of spec.layers) layers.push(await putLayer(layout, root));
    const config = putJson(layout, imageConfig(spec, layers));
    const manifest = putJson(layout, imageManifest(config, layers));
    fs.writeFileSync(path.join(layout, "index.json"), JSON.stringify(imageIndex(spec.ref, manifest)));
    fs.writeFileSync(path.join(layout, "oci-layout"), JSON.stringify({ imageLayoutVersion: "1.0.0" }));
    await check(["tar", "-C", layout, "-cf", archive, "oci-layout", "index.json", "blobs"], { timeoutMs: 10 * 60_000 });
}
