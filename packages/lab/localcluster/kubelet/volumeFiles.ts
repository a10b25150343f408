// The files of configMap, secret, downwardAPI and projected volumes, as the kubelet's volume
// plugins compute them (pkg/volume/{configmap,secret,downwardapi,projected} makePayload), and the
// pod's managed /etc/hosts. Pure: objects and service-account tokens are fetched by the caller.
import * as path from "node:path";
import { setupError } from "./errors";
import { PodAddresses, fieldRefValue } from "./fieldRef";
import { PodObjects } from "./resolve";
import type { ConfigMap, KeyToPath, Pod, Secret, Volume } from "./types";

export interface VolumeFile {
    /** Relative to the volume's directory. */
    path: string;
    data: Buffer;
    mode: number;
}

/** 0644, the API's default for every file-backed volume. */
const DEFAULT_MODE = 0o644;
/** The lifetime the kubelet asks for when a projection gives none. */
export const DEFAULT_TOKEN_SECONDS = 3600;

/** A service-account token a pod's projected volume needs: fetched by TokenRequest bound to the pod. */
export interface TokenSource {
    /** Identifies the projection: `<volume>/<path>`. */
    key: string;
    audiences: string[];
    expirationSeconds: number;
}

/** Every serviceAccountToken projection of the pod. */
export function tokenSources(pod: Pod): TokenSource[] {
    return (pod.spec?.volumes ?? []).flatMap((v) =>
        (v.projected?.sources ?? [])
            .filter((s) => s.serviceAccountToken)
            .map((s) => ({
                key: `${v.name}/${s.serviceAccountToken!.path}`,
                // An empty audience means the API server's own (the TokenRequest default).
                audiences: s.serviceAccountToken!.audience ? [s.serviceAccountToken!.audience] : [],
                expirationSeconds: s.serviceAccountToken!.expirationSeconds ?? DEFAULT_TOKEN_SECONDS,
            })),
    );
}

function keyValues(obj: ConfigMap | Secret, kind: "ConfigMap" | "Secret"): Map<string, Buffer> {
    if (kind === "Secret") {
        return new Map(Object.entries((obj as Secret).data ?? {}).map(([k, v]) => [k, Buffer.from(v, "base64")]));
    }
    const cm = obj as ConfigMap;
    return new Map([
        ...Object.entries(cm.data ?? {}).map(([k, v]): [string, Buffer] => [k, Buffer.from(v, "utf8")]),
        ...Object.entries(cm.binaryData ?? {}).map(([k, v]): [string, Buffer] => [k, Buffer.from(v, "base64")]),
    ]);
}

/** Files of one ConfigMap or Secret: all keys, or only the listed items. */
function keyFiles(
    kind: "ConfigMap" | "Secret",
    name: string,
    objects: PodObjects,
    ref: { items?: KeyToPath[]; optional?: boolean },
    defaultMode: number,
): VolumeFile[] {
    const obj = kind === "ConfigMap" ? objects.configMaps.get(name) : objects.secrets.get(name);
    if (obj === undefined) {
        if (ref.optional) return [];
        throw setupError(`${kind === "ConfigMap" ? "configmap" : "secret"} ${JSON.stringify(name)} not found`);
    }
    const values = keyValues(obj, kind);
    if (!ref.items || ref.items.length === 0) {
        return [...values].map(([k, data]) => ({ path: k, data, mode: defaultMode }));
    }
    const files: VolumeFile[] = [];
    for (const item of ref.items) {
        const data = values.get(item.key);
        if (data === undefined) {
            if (ref.optional) continue;
            throw setupError(`${kind === "ConfigMap" ? "configmap" : "secret"} references non-existent ${kind === "ConfigMap" ? "config" : "secret"} key: ${item.key}`);
        }
        files.push({ path: item.path, data, mode: item.mode ?? defaultMode });
    }
    return files;
}

function downwardFiles(
    items: ReadonlyArray<{ path: string; fieldRef?: { fieldPath: string }; mode?: number }>,
    pod: Pod,
    addr: PodAddresses,
    defaultMode: number,
): VolumeFile[] {
    return items.map((item) => {
        if (!item.fieldRef) throw setupError(`downwardAPI item ${item.path}: only fieldRef is supported (no resource accounting)`);
        let value: string;
        try {
            value = fieldRefValue(pod, item.fieldRef.fieldPath, addr);
        } catch (e) {
            throw setupError((e as Error).message);
        }
        return { path: item.path, data: Buffer.from(value, "utf8"), mode: item.mode ?? defaultMode };
    });
}

/** The files of a file-backed volume; `tokens` holds the fetched tokens by TokenSource key. */
export function volumeFiles(pod: Pod, v: Volume, objects: PodObjects, addr: PodAddresses, tokens: ReadonlyMap<string, string>): VolumeFile[] {
    let files: VolumeFile[];
    if (v.configMap) {
        files = keyFiles("ConfigMap", v.configMap.name ?? "", objects, v.configMap, v.configMap.defaultMode ?? DEFAULT_MODE);
    } else if (v.secret) {
        files = keyFiles("Secret", v.secret.secretName ?? "", objects, v.secret, v.secret.defaultMode ?? DEFAULT_MODE);
    } else if (v.downwardAPI) {
        files = downwardFiles(v.downwardAPI.items ?? [], pod, addr, v.downwardAPI.defaultMode ?? DEFAULT_MODE);
    } else if (v.projected) {
        const mode = v.projected.defaultMode ?? DEFAULT_MODE;
        files = (v.projected.sources ?? []).flatMap((s): VolumeFile[] => {
            if (s.configMap) return keyFiles("ConfigMap", s.configMap.name ?? "", objects, s.configMap, mode);
            if (s.secret) return keyFiles("Secret", s.secret.name ?? "", objects, s.secret, mode);
            if (s.downwardAPI) return downwardFiles(s.downwardAPI.items ?? [], pod, addr, mode);
            if (s.serviceAccountToken) {
                const token = tokens.get(`${v.name}/${s.serviceAccountToken.path}`);
                if (token === undefined) throw setupError(`volume ${v.name}: no service account token for ${s.serviceAccountToken.path}`);
                return [{ path: s.serviceAccountToken.path, data: Buffer.from(token, "utf8"), mode }];
            }
            throw setupError(`volume ${v.name}: projection ${Object.keys(s).join(", ")} is not supported`);
        });
    } else {
        throw new Error(`volume ${v.name} is not file-backed`);
    }
    for (const f of files) {
        const norm = path.posix.normalize(f.path);
        if (path.posix.isAbsolute(f.path) || norm.startsWith("../") || norm === "..") {
            throw setupError(`volume ${v.name}: file path ${f.path} leaves the volume`);
        }
    }
    return files;
}

/** The kubelet's managed hosts file for a pod with its own network namespace. */
export function etcHostsContent(podIPs: readonly string[], hostname: string, aliases: ReadonlyArray<{ ip?: string; hostnames?: string[] }> = []): string {
    const lines = [
        "# Kubernetes-managed hosts file.",
        "127.0.0.1\tlocalhost",
        "::1\tlocalhost ip6-localhost ip6-loopback",
        "fe00::0\tip6-localnet",
        "fe00::0\tip6-mcastprefix",
        "fe00::1\tip6-allnodes",
        "fe00::2\tip6-allrouters",
        ...podIPs.map((ip) => `${ip}\t${hostname}`),
    ];
    if (aliases.length > 0) {
        lines.push("", "# Entries added by HostAliases.");
        for (const a of aliases) lines.push(`${a.ip ?? ""}\t${(a.hostnames ?? []).join("\t")}`);
    }
    return lines.join("\n") + "\n";
}
