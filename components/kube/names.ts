// In-cluster names, exactly those of ovn-kubernetes' own manifests (the OpenShift DaemonSets the
// project started from), so operators, runbooks and `kubectl` habits carry over unchanged.

export const SERVICE_ACCOUNT = "ovn";
export const CONFIG_MAP = "ovn-config";
/** Name of both the ClusterRole (cluster-wide reads and annotations) and the Role (its own namespace). */
export const RBAC_NAME = "ovn-kubernetes";
export const MASTER = "ovnkube-master";
export { OVNKUBE_NODE as NODE } from "../model/names";

/**
 * The lock `ovnkube -init-master` takes for leader election in its config namespace: a ConfigMap in
 * the releases of the seeds' era, a Lease in later ones. The Role grants access to this name only.
 */
export const MASTER_LEADER_LOCK = "ovn-kubernetes-master";

/**
 * Label of control-plane nodes. kubeadm set `node-role.kubernetes.io/master` until Kubernetes 1.24
 * and only `node-role.kubernetes.io/control-plane` since, so the latter is the one that still exists.
 */
export const CONTROL_PLANE_LABEL = "node-role.kubernetes.io/control-plane";
export const OS_LABEL = "kubernetes.io/os";

/** Labels on every object, so `kubectl get -l app.kubernetes.io/part-of=ovn-kubernetes` finds them all. */
export const COMMON_LABELS: Readonly<Record<string, string>> = {
    "app.kubernetes.io/part-of": "ovn-kubernetes",
    "app.kubernetes.io/managed-by": "pulumi",
};
