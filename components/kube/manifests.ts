// Every Kubernetes object of ovn-kubernetes as plain data: a pure function of the model's `kube`
// part. The Ovnkube component creates exactly these; tests and renderers read them directly.
import type { KubeModel } from "../model/types";
import { configMap } from "./config-map";
import { hostNetworkNamespace, namespace, serviceAccount } from "./namespace";
import { ovnkubeMaster } from "./ovnkube-master";
import { nodePlanPatches } from "./node-annotations";
import { ovnkubeNodes } from "./ovnkube-node";
import { clusterRole, clusterRoleBinding, leaderElectionRole, leaderElectionRoleBinding } from "./rbac";
import type {
    ClusterRole,
    ClusterRoleBinding,
    ConfigMap,
    DaemonSet,
    KubeObject,
    Namespace,
    NodePatch,
    Role,
    RoleBinding,
    ServiceAccount,
} from "./types";
import { validateKubeModel } from "./validate";

export interface KubeManifests {
    namespace: Namespace;
    hostNetworkNamespace: Namespace;
    serviceAccount: ServiceAccount;
    configMap: ConfigMap;
    clusterRole: ClusterRole;
    clusterRoleBinding: ClusterRoleBinding;
    role: Role;
    roleBinding: RoleBinding;
    /** Server-side apply bodies for the existing Nodes: the plan ovnkube takes from them. */
    nodePlans: NodePatch[];
    master: DaemonSet;
    /** One ovnkube-node DaemonSet per node group. */
    nodes: DaemonSet[];
}

/** Throws `kube.<field>: <reason>` on a model ovnkube could not run with. */
export function kubeManifests(model: KubeModel): KubeManifests {
    validateKubeModel(model);
    return {
        namespace: namespace(model),
        hostNetworkNamespace: hostNetworkNamespace(),
        serviceAccount: serviceAccount(model),
        configMap: configMap(model),
        clusterRole: clusterRole(),
        clusterRoleBinding: clusterRoleBinding(model),
        role: leaderElectionRole(model),
        roleBinding: leaderElectionRoleBinding(model),
        nodePlans: nodePlanPatches(model),
        master: ovnkubeMaster(model),
        nodes: ovnkubeNodes(model),
    };
}

/**
 * In the order `kubectl apply` needs them: namespace first, what the pods use before the pods, the
 * Nodes' plan before the master reads it at start. The Node bodies are partial: apply them with
 * `kubectl apply --server-side --force-conflicts` and NODE_PLAN_APPLY's field manager.
 */
export function manifestList(m: KubeManifests): KubeObject[] {
    return [
        m.namespace,
        m.hostNetworkNamespace,
        m.serviceAccount,
        m.configMap,
        m.clusterRole,
        m.clusterRoleBinding,
        m.role,
        m.roleBinding,
        ...m.nodePlans,
        m.master,
        ...m.nodes,
    ];
}
