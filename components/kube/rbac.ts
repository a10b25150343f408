// What ovnkube may do in the API, and nothing more: the union of what upstream v1.0.0 grants its
// ovnkube-master and ovnkube-node service accounts (dist/templates/rbac-ovnkube-*.yaml.j2), cut to
// what the binaries do in a non-interconnect cluster with every optional feature off, for the one
// `ovn` service account both roles run as. Left out, with the reason:
// - every CRD group (k8s.ovn.org, k8s.cni.cncf.io, policy.networking.k8s.io): their informers start
//   only with the feature flags, none of which is passed;
// - `endpoints`: v1.0.0 reads service backends from EndpointSlices only;
// - namespaced `configmaps` read (Role ovn-k8s-configmap) and `endpoints` get (ovnkube-node-ep),
//   `nodes/status` get (ovnkube-node-status-reader): used by ovnkube.sh's kubectl calls and the
//   interconnect topology-version ConfigMap, not by ovnkube here;
// - `certificatesigningrequests`: identity mode only, which is off.
import type { KubeModel } from "../model/types";
import { COMMON_LABELS, MASTER_LEADER_LOCK, RBAC_NAME, SERVICE_ACCOUNT } from "./names";
import type { ClusterRole, ClusterRoleBinding, PolicyRule, Role, RoleBinding, ServiceAccountSubject } from "./types";

const READ = ["get", "list", "watch"];
const WRITE_STATUS = ["patch", "update"];

export const CLUSTER_RULES: readonly PolicyRule[] = [
    // Informers of master and node: pods get addresses, services and their EndpointSlices become
    // load balancers, namespaces and network policies become address sets, port groups and ACLs,
    // nodes get switches and gateway routers.
    { apiGroups: [""], resources: ["namespaces", "nodes", "pods", "services"], verbs: READ },
    { apiGroups: ["discovery.k8s.io"], resources: ["endpointslices"], verbs: READ },
    { apiGroups: ["networking.k8s.io"], resources: ["networkpolicies"], verbs: READ },
    // Every annotation ovnkube writes goes through the status subresource (PatchStatus /
    // UpdateStatus): node subnets, ids and gateway config on nodes, pod-networks on pods, the
    // unidling annotation on services. The objects themselves are never patched.
    { apiGroups: [""], resources: ["nodes/status", "pods/status", "services/status"], verbs: WRITE_STATUS },
    { apiGroups: [""], resources: ["events"], verbs: ["create", "patch", "update"] },
];

/**
 * Leader election among ovnkube-master pods: v1.0.0 uses a Lease only (client-go dropped the
 * ConfigMap lock), confined to its one name. `create` cannot be limited by name (the object has no
 * name before it exists), so it stays namespaced instead.
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
