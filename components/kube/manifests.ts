// Every Kubernetes object of ovn-kubernetes as plain data: a pure function of the model's `kube`
// part. The Ovnkube component creates exactly these; tests and renderers read them directly.
import type { KubeModel } from "../model/types";
import { configMap } from "./configMap";
import { hostNetworkNamespace, namespace } from "./namespace";
import { ovnkubeControlPlane } from "./ovnkubeControlPlane";
import { nodePlanPatches } from "./nodeAnnotations";
import { ovnkubeNodes } from "./ovnkubeNodeDaemonSets";
import { ovnkubeDb } from "./ovnkubeDb";
import {
    clusterRole,
    clusterRoleBinding,
    leaderElectionRole,
    leaderElectionRoleBinding,
    serviceAccount,
    serviceAccountName,
    type OvnkubeRole,
} from "./rbac";
import {
    identityClusterRole,
    identityClusterRoleBinding,
    identityDaemonSet,
    identityRole,
    identityRoleBinding,
    identityServiceAccount,
} from "./identity";
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
} from "./objectTypes";
import { validateKubeModel } from "./checkKubeModel";

/** What each of ovnkube's identities runs as and may do. */
export interface RoleManifests {
    serviceAccount: ServiceAccount;
    clusterRole: ClusterRole;
    clusterRoleBinding: ClusterRoleBinding;
}

export interface KubeManifests {
    namespace: Namespace;
    hostNetworkNamespace: Namespace;
    configMap: ConfigMap;
    roles: Record<OvnkubeRole, RoleManifests>;
    /** Leader election of the control plane. */
    role: Role;
    roleBinding: RoleBinding;
    /** Server-side apply bodies for the existing Nodes: the plan ovnkube takes from them. */
    nodePlans: NodePatch[];
    /** Centralized with OVN from the image: the centrals' NB, SB and northd (./ovnkubeDb). */
    databases?: DaemonSet;
    /** ovnkube-control-plane (interconnect) or ovnkube-master (centralized). */
    controlPlane: DaemonSet;
    /** One ovnkube-node DaemonSet per node group. */
    nodes: DaemonSet[];
    /** ovnkube-identity, when node identities are on; its certificate's Secret and webhooks take the certificate (./identity). */
    identity?: {
        serviceAccount: ServiceAccount;
        clusterRole: ClusterRole;
        clusterRoleBinding: ClusterRoleBinding;
        role: Role;
        roleBinding: RoleBinding;
        daemonSet: DaemonSet;
    };
}

function roleManifests(model: KubeModel, role: OvnkubeRole): RoleManifests {
    return {
        serviceAccount: serviceAccount(model, role),
        clusterRole: clusterRole(model, role),
        clusterRoleBinding: clusterRoleBinding(model, role),
    };
}

/** Throws `kube.<field>: <reason>` on a model ovnkube could not run with. */
export function kubeManifests(model: KubeModel): KubeManifests {
    validateKubeModel(model);
    return {
        namespace: namespace(model),
        hostNetworkNamespace: hostNetworkNamespace(),
        configMap: configMap(model),
        roles: { "control-plane": roleManifests(model, "control-plane"), node: roleManifests(model, "node") },
        role: leaderElectionRole(model),
        roleBinding: leaderElectionRoleBinding(model),
        nodePlans: nodePlanPatches(model),
        ...(ovnkubeDb(model) ? { databases: ovnkubeDb(model) } : {}),
        controlPlane: ovnkubeControlPlane(model),
        nodes: ovnkubeNodes(model),
        ...(model.identity
            ? {
                  identity: {
                      serviceAccount: identityServiceAccount(model),
                      clusterRole: identityClusterRole(),
                      clusterRoleBinding: identityClusterRoleBinding(model),
                      role: identityRole(model),
                      roleBinding: identityRoleBinding(model),
                      daemonSet: identityDaemonSet(model, serviceAccountName(model, "control-plane")),
                  },
              }
            : {}),
    };
}

/**
 * In the order `kubectl apply` needs them: namespace first, what the pods use before the pods, the
 * Nodes' plan before the cluster manager reads it at start. The release's CRDs come first of all,
 * from their upstream URLs (KubeModel.crdUrls). The Node bodies are partial: apply them with
 * `kubectl apply --server-side --force-conflicts` and NODE_PLAN_APPLY's field manager.
 */
export function manifestList(m: KubeManifests): KubeObject[] {
    return [
        m.namespace,
        m.hostNetworkNamespace,
        m.configMap,
        ...Object.values(m.roles).flatMap((r) => [r.serviceAccount, r.clusterRole, r.clusterRoleBinding]),
        m.role,
        m.roleBinding,
        ...m.nodePlans,
        ...(m.identity ? Object.values(m.identity) : []),
        ...(m.databases ? [m.databases] : []),
        m.controlPlane,
        ...m.nodes,
    ];
}
