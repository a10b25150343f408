// In-cluster names, exactly those of ovn-kubernetes' own manifests (the OpenShift DaemonSets the
// project started from), so operators, runbooks and `kubectl` habits carry over unchanged.

export const CONFIG_MAP = "ovn-config";
/** Name of the Role (leader election in its own namespace) and the prefix of the ClusterRoles. */
export const RBAC_NAME = "ovn-kubernetes";
/** The centralized master (cluster manager and network controller in one process). */
export const MASTER = "ovnkube-master";
/** Interconnect's control-plane workload and its container, as upstream's chart names them. */
export const CONTROL_PLANE = "ovnkube-control-plane";
export const CLUSTER_MANAGER = "ovnkube-cluster-manager";
/** Interconnect: the node pod's container that runs the zone's controller and the node together. */
export const CONTROLLER = "ovnkube-controller";
/** Every Node's zone (interconnect): its own name, as upstream's docs have operators label it. */
export const ZONE_LABEL = "k8s.ovn.org/zone-name";
/**
 * Every planned Node's ovnkube-node DaemonSet (its node group), put there by the node's plan; each
 * DaemonSet selects its nodes by it. A node that joins or leaves then changes its own Node, not the
 * pod template of every node's ovnkube-node, which would restart it on every node.
 */
export const NODE_GROUP_LABEL = "ovn-kubernetes-as-code/ovnkube-node-group";
/**
 * The namespace that stands for host-network traffic in network policies, as upstream's manifests
 * create it: the master keeps the nodes' management and join addresses in its address set, so a
 * policy admitting that namespace (or all namespaces) admits traffic from the nodes.
 */
export const HOST_NETWORK_NAMESPACE = "ovn-host-network";
export { OVNKUBE_NODE as NODE } from "../model/names";

/**
 * The Lease the cluster manager (or centralized master) takes for leader election in its config
 * namespace (`-ovn-config-namespace`). The Role grants access to this name only.
 */
export const MASTER_LEADER_LOCK = "ovn-kubernetes-master";

/** Template label shared by every DaemonSet of one role, so `-l app=ovnkube-node` finds all node groups' pods. */
export const APP_LABEL = "app";

/**
 * Node annotations through which ovnkube takes the project's plan: the node subnet (kept by the
 * cluster manager whenever it lies in the cluster network) and the node-id (reserved at cluster
 * manager start; the gateway router's join address and the transit address are base + id).
 */
export const NODE_SUBNETS_ANNOTATION = "k8s.ovn.org/node-subnets";
export const NODE_ID_ANNOTATION = "k8s.ovn.org/node-id";
export const NODE_TRANSIT_ANNOTATION = "k8s.ovn.org/node-transit-switch-port-ifaddr";
/** ovnkube's name for the cluster's default network in per-network annotations. */
export const DEFAULT_NETWORK = "default";

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
