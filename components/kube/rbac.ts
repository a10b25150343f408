// What ovnkube may do in the API, and nothing more. Derived from what `ovnkube -init-master` and
// `-init-node` call: informers on the objects they translate into OVN, annotations they write
// (node subnets and chassis ids on nodes, the `ovn` address annotation on pods), events they
// record, and the leader-election lock of the masters in their own namespace.
import type { KubeModel } from "../model/types";
import { COMMON_LABELS, MASTER_LEADER_LOCK, RBAC_NAME, SERVICE_ACCOUNT } from "./names";
import type { ClusterRole, ClusterRoleBinding, PolicyRule, Role, RoleBinding, ServiceAccountSubject } from "./types";

const READ = ["get", "list", "watch"];

export const CLUSTER_RULES: readonly PolicyRule[] = [
    // Informers of master and node: pods get addresses, services and endpoints become load
    // balancers, namespaces and network policies become port groups and ACLs, nodes get switches.
    { apiGroups: [""], resources: ["namespaces", "nodes", "pods", "services", "endpoints"], verbs: READ },
    // Later releases read service backends from EndpointSlices instead of Endpoints.
    { apiGroups: ["discovery.k8s.io"], resources: ["endpointslices"], verbs: READ },
    { apiGroups: ["networking.k8s.io"], resources: ["networkpolicies"], verbs: READ },
    // Annotations: early releases patch the objects themselves...
    { apiGroups: [""], resources: ["nodes", "pods"], verbs: ["patch"] },
    // ...later ones patch and update them through the status subresource.
    { apiGroups: [""], resources: ["nodes/status", "pods/status"], verbs: ["patch", "update"] },
    { apiGroups: [""], resources: ["events"], verbs: ["create", "patch", "update"] },
];

/**
 * Leader election among ovnkube-master pods, confined to the one lock name. `create` cannot be
 * limited by name (the object has no name before it exists), so it stays namespaced instead.
 */
export const LEADER_ELECTION_RULES: readonly PolicyRule[] = [
    { apiGroups: [""], resources: ["configmaps"], verbs: ["create"] },
    { apiGroups: [""], resources: ["configmaps"], resourceNames: [MASTER_LEADER_LOCK], verbs: ["get", "update"] },
    { apiGroups: ["coordination.k8s.io"], resources: ["leases"], verbs: ["create"] },
    {
        apiGroups: ["coordination.k8s.io"],
        resources: ["leases"],
        resourceNames: [MASTER_LEADER_LOCK],
        verbs: ["get", "update"],
    },
];

const copyRules = (rules: readonly PolicyRule[]): PolicyRule[] =>
    rules.map((r) => ({
        ...r,
        apiGroups: [...r.apiGroups],
        resources: [...r.resources],
        verbs: [...r.verbs],
        ...(r.resourceNames ? { resourceNames: [...r.resourceNames] } : {}),
    }));

function subject(model: KubeModel): ServiceAccountSubject {
    return { kind: "ServiceAccount", name: SERVICE_ACCOUNT, namespace: model.namespace };
}

export function clusterRole(): ClusterRole {
    return {
        apiVersion: "rbac.authorization.k8s.io/v1",
        kind: "ClusterRole",
        metadata: { name: RBAC_NAME, labels: { ...COMMON_LABELS } },
        rules: copyRules(CLUSTER_RULES),
    };
}

export function clusterRoleBinding(model: KubeModel): ClusterRoleBinding {
    return {
        apiVersion: "rbac.authorization.k8s.io/v1",
        kind: "ClusterRoleBinding",
        metadata: { name: RBAC_NAME, labels: { ...COMMON_LABELS } },
        roleRef: { apiGroup: "rbac.authorization.k8s.io", kind: "ClusterRole", name: RBAC_NAME },
        subjects: [subject(model)],
    };
}

export function leaderElectionRole(model: KubeModel): Role {
    return {
        apiVersion: "rbac.authorization.k8s.io/v1",
        kind: "Role",
        metadata: { name: RBAC_NAME, namespace: model.namespace, labels: { ...COMMON_LABELS } },
        rules: copyRules(LEADER_ELECTION_RULES),
    };
}

export function leaderElectionRoleBinding(model: KubeModel): RoleBinding {
    return {
        apiVersion: "rbac.authorization.k8s.io/v1",
        kind: "RoleBinding",
        metadata: { name: RBAC_NAME, namespace: model.namespace, labels: { ...COMMON_LABELS } },
        roleRef: { apiGroup: "rbac.authorization.k8s.io", kind: "Role", name: RBAC_NAME },
        subjects: [subject(model)],
    };
}
