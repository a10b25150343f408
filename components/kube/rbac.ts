// What ovnkube may do in the API, and nothing more: per service account, what upstream's chart
// grants it (docs/facts/ovnkube-1.3.md §4), cut to what the binaries do with the stack's features
// (./featureRbac: each enabled feature's grants). Left out, with the reason:
// - the CRD groups of features that are off (k8s.cni.cncf.io without multiNetwork):
//   their informers start only with the feature flags;
// - `endpoints`: ovnkube reads service backends from EndpointSlices only; the chart's endpoints
//   rules serve ovnkube.sh's kubectl calls;
// - `configmaps`: read by ovnkube.sh, not by ovnkube;
// With node identities (./identity.ts, the default) the node role is the group `system:ovn-nodes`'s,
// every node's own certificate user, and grants it the CSRs it renews that certificate with.
import type { KubeModel } from "../model/types";
import { CLUSTER_MANAGER, COMMON_LABELS, MASTER, MASTER_LEADER_LOCK, NODE, RBAC_NAME } from "./objectNames";
import { OVN_NODES_GROUP } from "./identity";
import { featureRules, type FeatureGrants } from "./featureRbac";
import type {
    ClusterRole,
    ClusterRoleBinding,
    GroupSubject,
    PolicyRule,
    Role,
    RoleBinding,
    ServiceAccount,
    ServiceAccountSubject,
} from "./objectTypes";

const READ = ["get", "list", "watch"];
const WRITE_STATUS = ["patch", "update"];

/** The two identities ovnkube runs as. */
export type OvnkubeRole = "control-plane" | "node";

/** The control plane's account: the cluster manager (interconnect) or the master (centralized). */
export function serviceAccountName(model: KubeModel, role: OvnkubeRole): string {
    if (role === "node") return NODE;
    return model.architecture === "interconnect" ? CLUSTER_MANAGER : MASTER;
}

/** Informers every role starts: nodes get subnets and gateways, services and their slices load balancers. */
const WATCHED: PolicyRule[] = [
    { apiGroups: [""], resources: ["namespaces", "nodes", "pods", "services"], verbs: READ },
    { apiGroups: ["discovery.k8s.io"], resources: ["endpointslices"], verbs: READ },
];
const EVENTS: PolicyRule = { apiGroups: [""], resources: ["events"], verbs: ["create", "patch", "update"] };
/**
 * The network controller (the centralized master, or each zone's ovnkube-controller): network
 * policies become ACLs; pods get their pod-networks annotation, services the unidling one, and
 * (interconnect) namespaces their status. Every annotation goes through the status subresource.
 */
const CONTROLLER: PolicyRule[] = [
    { apiGroups: ["networking.k8s.io"], resources: ["networkpolicies"], verbs: READ },
    { apiGroups: [""], resources: ["pods/status", "services/status"], verbs: WRITE_STATUS },
];
/** Node annotations (subnets and ids from the cluster manager, gateway and chassis from the node). */
const NODE_STATUS: PolicyRule = { apiGroups: [""], resources: ["nodes/status"], verbs: WRITE_STATUS };

export function clusterRules(model: KubeModel, role: OvnkubeRole): PolicyRule[] {
    const ic = model.architecture === "interconnect";
    // Who runs the network controller: the master when centralized, every node with interconnect.
    const controller = role === "control-plane" ? !ic : ic;
    const rules = [...WATCHED.map(copyRule), NODE_STATUS, ...(controller ? CONTROLLER.map(copyRule) : []), EVENTS];
    if (controller && ic) rules.push({ apiGroups: [""], resources: ["namespaces/status"], verbs: WRITE_STATUS });
    if (role === "node" && model.identity)
        rules.push({ apiGroups: ["certificates.k8s.io"], resources: ["certificatesigningrequests"], verbs: ["create", ...READ] });
    const parts: Array<keyof FeatureGrants> = [
        ...(controller ? (["controller"] as const) : []),
        role === "node" ? "node" : "clusterManager",
    ];
    rules.push(...featureRules(model.features, parts));
    return rules.map(copyRule);
}

/**
 * Leader election among the control-plane pods: a Lease only, confined to its one name. `create`
 * cannot be limited by name (the object has no name before it exists), so it stays namespaced.
 */
export const LEADER_ELECTION_RULES: readonly PolicyRule[] = [
    { apiGroups: ["coordination.k8s.io"], resources: ["leases"], verbs: ["create"] },
    {
        apiGroups: ["coordination.k8s.io"],
        resources: ["leases"],
        resourceNames: [MASTER_LEADER_LOCK],
        verbs: ["get", "update"],
    },
];

function copyRule(r: PolicyRule): PolicyRule {
    return {
        ...r,
        apiGroups: [...r.apiGroups],
        resources: [...r.resources],
        verbs: [...r.verbs],
        ...(r.resourceNames ? { resourceNames: [...r.resourceNames] } : {}),
    };
}

function subject(model: KubeModel, role: OvnkubeRole): ServiceAccountSubject {
    return { kind: "ServiceAccount", name: serviceAccountName(model, role), namespace: model.namespace };
}

/** Who holds a role: its account, or with node identities the nodes' group. */
function holder(model: KubeModel, role: OvnkubeRole): ServiceAccountSubject | GroupSubject {
    if (role === "node" && model.identity) return { kind: "Group", name: OVN_NODES_GROUP, apiGroup: "rbac.authorization.k8s.io" };
    return subject(model, role);
}

const clusterRoleName = (role: OvnkubeRole) => `${RBAC_NAME}-${role}`;

export function serviceAccount(model: KubeModel, role: OvnkubeRole): ServiceAccount {
    return {
        apiVersion: "v1",
        kind: "ServiceAccount",
        metadata: { name: serviceAccountName(model, role), namespace: model.namespace, labels: { ...COMMON_LABELS } },
    };
}

export function clusterRole(model: KubeModel, role: OvnkubeRole): ClusterRole {
    return {
        apiVersion: "rbac.authorization.k8s.io/v1",
        kind: "ClusterRole",
        metadata: { name: clusterRoleName(role), labels: { ...COMMON_LABELS } },
        rules: clusterRules(model, role),
    };
}

export function clusterRoleBinding(model: KubeModel, role: OvnkubeRole): ClusterRoleBinding {
    return {
        apiVersion: "rbac.authorization.k8s.io/v1",
        kind: "ClusterRoleBinding",
        metadata: { name: clusterRoleName(role), labels: { ...COMMON_LABELS } },
        roleRef: { apiGroup: "rbac.authorization.k8s.io", kind: "ClusterRole", name: clusterRoleName(role) },
        subjects: [holder(model, role)],
    };
}

export function leaderElectionRole(model: KubeModel): Role {
    return {
        apiVersion: "rbac.authorization.k8s.io/v1",
        kind: "Role",
        metadata: { name: RBAC_NAME, namespace: model.namespace, labels: { ...COMMON_LABELS } },
        rules: LEADER_ELECTION_RULES.map(copyRule),
    };
}

export function leaderElectionRoleBinding(model: KubeModel): RoleBinding {
    return {
        apiVersion: "rbac.authorization.k8s.io/v1",
        kind: "RoleBinding",
        metadata: { name: RBAC_NAME, namespace: model.namespace, labels: { ...COMMON_LABELS } },
        roleRef: { apiGroup: "rbac.authorization.k8s.io", kind: "Role", name: RBAC_NAME },
        subjects: [subject(model, "control-plane")],
    };
}
