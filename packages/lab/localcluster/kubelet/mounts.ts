// Where each volume of a pod lives on the host and what a container mounts where, as the kubelet
// and the container runtime plan it (pkg/kubelet/kubelet_pods.go makeMounts; containerd sorts
// mounts so parents come before children). Here the container's root is the host's root, so a
// "mount" is a bind mount inside the container's own mount namespace. Pure.
import * as path from "node:path";
import { expand, lookupIn } from "./expand";
import { configError } from "./errors";
import type { Container, Pod, Volume, VolumeMount } from "./types";

export type Propagation = "None" | "HostToContainer" | "Bidirectional";

export interface BindMount {
    /** Path in the host. */
    source: string;
    /** Path inside the container (the host's root seen from the container's mount namespace). */
    target: string;
    readOnly: boolean;
    propagation: Propagation;
    /** subPath that the kubelet creates as a directory when it is missing. */
    createSource: boolean;
}

/** Volume types whose files the kubelet writes itself (and always mounts read-only). */
export const FILE_VOLUME_PLUGINS = {
    configMap: "kubernetes.io~configmap",
    secret: "kubernetes.io~secret",
    projected: "kubernetes.io~projected",
    downwardAPI: "kubernetes.io~downward-api",
} as const;
const EMPTY_DIR_PLUGIN = "kubernetes.io~empty-dir";

export type FileVolumeKind = keyof typeof FILE_VOLUME_PLUGINS;

/** The kubelet's directory of one pod: `<root>/pods/<uid>`. */
export function podDir(rootDir: string, uid: string): string {
    return path.posix.join(rootDir, "pods", uid);
}

/** The kind of a volume whose files the kubelet writes, or undefined for hostPath and emptyDir. */
export function fileVolumeKind(v: Volume): FileVolumeKind | undefined {
    return (Object.keys(FILE_VOLUME_PLUGINS) as FileVolumeKind[]).find((k) => v[k] !== undefined);
}

/** Where a volume's content lives on the host; throws for volume types this kubelet cannot provide. */
export function volumeSource(rootDir: string, uid: string, v: Volume): string {
    if (v.hostPath) return v.hostPath.path;
    const kind = fileVolumeKind(v);
    const plugin = v.emptyDir ? EMPTY_DIR_PLUGIN : kind ? FILE_VOLUME_PLUGINS[kind] : undefined;
    if (!plugin) {
        const type = Object.keys(v).find((k) => k !== "name") ?? "unknown";
        throw configError(`volume ${v.name}: type ${type} is not supported (hostPath, emptyDir, configMap, secret, projected and downwardAPI are)`);
    }
    return path.posix.join(podDir(rootDir, uid), "volumes", plugin, v.name);
}

/** subPath / subPathExpr, checked as the kubelet does: relative, no `..`. */
function subPathOf(m: VolumeMount, env: ReadonlyMap<string, string>): string {
    const sub = m.subPathExpr ? expand(m.subPathExpr, lookupIn(env)) : (m.subPath ?? "");
    if (sub === "") return "";
    if (path.posix.isAbsolute(sub)) throw configError(`error SubPath \`${sub}\` must not be an absolute path`);
    if (sub.split("/").includes("..")) throw configError(`unable to provision SubPath \`${sub}\`: must not contain '..'`);
    return sub;
}

/** Normalized, without a trailing slash: `/a/b/` and `/a/./b` name the same mount point. */
function cleanPath(p: string): string {
    const n = path.posix.normalize(p);
    return n.length > 1 ? n.replace(/\/+$/, "") : n;
}

function depth(p: string): number {
    return path.posix.normalize(p).split("/").filter(Boolean).length;
}

/** Bind mounts of a container's volumeMounts, in the order declared. */
export function volumeMounts(pod: Pod, container: Container, env: ReadonlyMap<string, string>, rootDir: string): BindMount[] {
    const uid = pod.metadata?.uid ?? "";
    const volumes = new Map((pod.spec?.volumes ?? []).map((v) => [v.name, v]));
    const mounts = (container.volumeMounts ?? []).map((m): BindMount => {
        const v = volumes.get(m.name);
        if (!v) throw configError(`container ${container.name}: volumeMount ${m.name} names no volume of the pod`);
        if (!path.posix.isAbsolute(m.mountPath)) throw configError(`container ${container.name}: mountPath ${m.mountPath} is not absolute`);
        const sub = subPathOf(m, env);
        const base = volumeSource(rootDir, uid, v);
        return {
            source: sub ? path.posix.join(base, sub) : base,
            target: cleanPath(m.mountPath),
            readOnly: m.readOnly === true || fileVolumeKind(v) !== undefined,
            propagation: (m.mountPropagation as Propagation | undefined) ?? "None",
            createSource: sub !== "",
        };
    });
    return mounts;
}

/**
 * The image's files: every file under the image's directory in the host, bound read-only over the
 * same path below the root, so only this container sees them. `files` are paths relative to `dir`.
 */
export function imageMounts(dir: string, files: readonly string[]): BindMount[] {
    return files.map((rel) => ({
        source: path.posix.join(dir, rel),
        target: path.posix.join("/", rel),
        readOnly: true,
        propagation: "None",
        createSource: false,
    }));
}

/** The pod's managed /etc/hosts (pods with their own network namespace only, as the kubelet does). */
export function etcHostsMount(rootDir: string, uid: string): BindMount {
    return { source: path.posix.join(podDir(rootDir, uid), "etc-hosts"), target: "/etc/hosts", readOnly: false, propagation: "None", createSource: false };
}

/** Parents before children; equal depth keeps the given order (image files, then volumes). */
export function sortMounts(mounts: readonly BindMount[]): BindMount[] {
    return mounts
        .map((m, i) => ({ m, i }))
        .sort((a, b) => depth(a.m.target) - depth(b.m.target) || a.i - b.i)
        .map(({ m }) => m);
}

/**
 * Everything a container mounts: image files first, then /etc/hosts unless a volume takes it,
 * then its volumes, ordered so that a parent is mounted before what lies below it.
 */
export function containerMounts(parts: { image: BindMount[]; etcHosts?: BindMount; volumes: BindMount[] }): BindMount[] {
    const hosts = parts.etcHosts && !parts.volumes.some((m) => m.target === "/etc/hosts") ? [parts.etcHosts] : [];
    return sortMounts([...parts.image, ...hosts, ...parts.volumes]);
}
