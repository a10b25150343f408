// Downward API field paths, resolved the way the kubelet does for env `fieldRef` and for
// downwardAPI volume items (pkg/kubelet/kubelet_pods.go podFieldSelectorRuntimeValue and
// pkg/fieldpath ExtractFieldPathAsString).
import type { Pod } from "./types";

/** What the kubelet knows about a pod beyond its object: the node's and the pod's addresses. */
export interface PodAddresses {
    hostIPs: readonly string[];
    podIPs: readonly string[];
}

const SUBSCRIPT = /^metadata\.(labels|annotations)\['(.+)'\]$/;

/** `key="value"` lines sorted by key, as fieldpath.FormatMap renders a whole map. */
function formatMap(m: Record<string, string> | undefined): string {
    return Object.keys(m ?? {})
        .sort()
        .map((k) => `${k}=${JSON.stringify(m![k])}`)
        .join("\n");
}

export function fieldRefValue(pod: Pod, fieldPath: string, addr: PodAddresses): string {
    const meta = pod.metadata ?? {};
    switch (fieldPath) {
        case "metadata.name":
            return meta.name ?? "";
        case "metadata.namespace":
            return meta.namespace ?? "";
        case "metadata.uid":
            return meta.uid ?? "";
        case "metadata.labels":
            return formatMap(meta.labels);
        case "metadata.annotations":
            return formatMap(meta.annotations);
        case "spec.nodeName":
            return pod.spec?.nodeName ?? "";
        case "spec.serviceAccountName":
            return pod.spec?.serviceAccountName ?? "";
        case "status.hostIP":
            return addr.hostIPs[0] ?? "";
        case "status.hostIPs":
            return addr.hostIPs.join(",");
        case "status.podIP":
            return addr.podIPs[0] ?? "";
        case "status.podIPs":
            return addr.podIPs.join(",");
    }
    const sub = SUBSCRIPT.exec(fieldPath);
    if (sub) {
        const map = sub[1] === "labels" ? meta.labels : meta.annotations;
        return map?.[sub[2]] ?? "";
    }
    throw new Error(`unsupported fieldPath: ${fieldPath}`);
}
