// The namespace ovn-kubernetes lives in, and the namespace that stands for host-network traffic in
// network policies.
import type { KubeModel } from "../model/types";
import { COMMON_LABELS, HOST_NETWORK_NAMESPACE } from "./objectNames";
import type { Namespace } from "./objectTypes";

export function namespace(model: KubeModel): Namespace {
    return {
        apiVersion: "v1",
        kind: "Namespace",
        metadata: {
            name: model.namespace,
            labels: {
                ...COMMON_LABELS,
                // The DaemonSets need host networking, host PIDs and a privileged container; Pod
                // Security Admission would refuse them under the baseline or restricted levels.
                "pod-security.kubernetes.io/enforce": "privileged",
            },
            annotations: {
                // OpenShift applies a project's default node selector to every pod in it; an empty
                // one keeps ovnkube-node on every node, masters included.
                "openshift.io/node-selector": "",
            },
        },
    };
}

/** Holds no pods: only its name matters, to policies that select it and to the master's address set. */
export function hostNetworkNamespace(): Namespace {
    return { apiVersion: "v1", kind: "Namespace", metadata: { name: HOST_NETWORK_NAMESPACE, labels: { ...COMMON_LABELS } } };
}
