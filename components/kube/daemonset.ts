// What the ovnkube DaemonSets share: selector and labels derived from one name, the pod-level
// settings every network daemon needs, placement on named nodes, and the rollout on ovn-config
// changes.
import type { KubeModel } from "../model/types";
import { configHash } from "./configMap";
import { APP_LABEL, COMMON_LABELS } from "./objectNames";
import type { DaemonSet, NodeAffinity, PodSpec } from "./objectTypes";

/** Annotation on the pod templates carrying the digest of ovn-config. */
export const CONFIG_HASH_ANNOTATION = "checksum/ovn-config";

/** Pod-spec fields that differ between master and node; the rest is fixed below. */
export type PodSpecParts = Pick<
    PodSpec,
    "serviceAccountName" | "hostPID" | "priorityClassName" | "nodeSelector" | "affinity" | "initContainers" | "containers" | "volumes"
>;

/**
 * Only on the named nodes. Matched on the Node's name (the kubernetes.io/hostname label may differ
 * from it), the name the model plans with. The API server allows a single value per `metadata.name`
 * field selector, so each node is a term of its own (terms are ORed), as the DaemonSet controller
 * itself writes them.
 */
export function onNodes(nodes: readonly string[]): NodeAffinity {
    return {
        requiredDuringSchedulingIgnoredDuringExecution: {
            nodeSelectorTerms: nodes.map((node) => ({ matchFields: [{ key: "metadata.name", operator: "In", values: [node] }] })),
        },
    };
}

/** `app` is the role (ovnkube-control-plane or ovnkube-master, ovnkube-node) shared by every DaemonSet of that role. */
export function ovnkubeDaemonSet(
    model: KubeModel,
    name: string,
    app: string,
    maxUnavailable: number | string,
    parts: PodSpecParts,
    /** More pod template annotations: digests whose change must roll the pods. */
    rollOn: Record<string, string> = {},
): DaemonSet {
    // The selector is immutable once created, so it holds the one stable label and nothing else;
    // names differ between DaemonSets, so no two select the same pods.
    const selector = { name };
    const labels = { ...COMMON_LABELS, [APP_LABEL]: app, ...selector };
    return {
        apiVersion: "apps/v1",
        kind: "DaemonSet",
        metadata: { name, namespace: model.namespace, labels },
        spec: {
            selector: { matchLabels: selector },
            updateStrategy: { type: "RollingUpdate", rollingUpdate: { maxUnavailable } },
            template: {
                metadata: {
                    labels,
                    annotations: { [CONFIG_HASH_ANNOTATION]: configHash(model), ...rollOn },
                },
                spec: {
                    // The pod network does not exist before ovnkube has built it.
                    hostNetwork: true,
                    // Cluster DNS runs in pods on that network, so resolve like the host does.
                    dnsPolicy: "Default",
                    // Nodes are tainted not-ready / network-unavailable until the network plugin
                    // runs, and masters carry their own taints: tolerate every taint.
                    tolerations: [{ operator: "Exists" }],
                    ...withoutUndefined(parts),
                },
            },
        },
    };
}

/** Parts a DaemonSet does not use are left out, not present as undefined: the object renders and diffs as written. */
function withoutUndefined<T extends object>(obj: T): T {
    return Object.fromEntries(Object.entries(obj).filter(([, v]) => v !== undefined)) as T;
}
