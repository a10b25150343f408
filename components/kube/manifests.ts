// Every Kubernetes object of ovn-kubernetes as plain data: a pure function of the model's `kube`
// part. The Ovnkube component creates exactly these; tests and renderers read them directly.
import type { KubeModel } from "../model/types";
import { configMap } from "./config-map";
import { namespace, serviceAccount } from "./namespace";
import { ovnkubeMaster } from "./ovnkube-master";
import { ovnkubeNode } from "./ovnkube-node";
import { clusterRole, clusterRoleBinding, leaderElectionRole, leaderElectionRoleBinding } from "./rbac";
import type {
    ClusterRole,
    ClusterRoleBinding,
    ConfigMap,
    DaemonSet,
    KubeObject,
    Namespace,
    Role,
    RoleBinding,
    ServiceAccount,
} from "./types";
import { validateKubeModel } from "./validate";

export interface KubeManifests {
    namespace: Namespace;
    serviceAccount: ServiceAccount;
    configMap: ConfigMap;
    clusterRole: ClusterRole;
    clusterRoleBinding: ClusterRoleBinding;
    role: Role;
    roleBinding: RoleBinding;
    master: DaemonSet;
    node: DaemonSet;
}

/** Throws `kube.<field>: <reason>` on a model ovnkube could not run with. */
export function kubeManifests(model: KubeModel): KubeManifests {
    validateKubeModel(model);
    return {
        namespace: namespace(model),
        serviceAccount: serviceAccount(model),
        configMap: configMap(model),
        clusterRole: clusterRole(),
        clusterRoleBinding: clusterRoleBinding(model),
        role: leaderElectionRole(model),
        roleBinding: leaderElectionRoleBinding(model),
        master: ovnkubeMaster(model),
        node: ovnkubeNode(model),
    };
}

/** In the order `kubectl apply` needs them: namespace first, what the pods use before the pods. */
export function manifestList(m: KubeManifests): KubeObject[] {
    return [
        m.namespace,
        m.serviceAccount,
        m.configMap,
        m.clusterRole,
        m.clusterRoleBinding,
        m.role,
        m.roleBinding,
        m.master,
        m.node,
    ];
}
