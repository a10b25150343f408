// The control plane on the control-plane nodes that the model names as masters: with interconnect
// the cluster manager (DaemonSet ovnkube-control-plane, `ovnkube -init-cluster-manager`), centralized
// the master (DaemonSet ovnkube-master, `ovnkube -init-master`). Several may run: they elect one
// leader through the Lease in their namespace.
//
// Upstream runs them as Deployments (and, centralized, ovn-northd and the databases in pods). Here
// NB, SB and northd live on the hosts (host layer), so the pod holds the one ovnkube process; a
// DaemonSet on the named masters keeps one standby per master host, as the seeds' DaemonSet did.
// It needs no host PIDs and no privilege, only the host network (to reach the API server and the
// databases as the hosts do), its log directory, and /etc/openvswitch (read-only) for the OVN client
// SSL files when NB/SB use ssl:. It never touches OVS or iptables, so none of the node's other host
// directories are mounted.
import type { KubeModel } from "../model/types";
import { onNodes, ovnkubeDaemonSet } from "./daemonset";
import { ETC_OPENVSWITCH, mounts, OVNKUBE_LOG, volumes } from "./hostPaths";
import { CLUSTER_MANAGER, CONTROL_PLANE, CONTROL_PLANE_LABEL, MASTER, OS_LABEL } from "./objectNames";
import { clusterManagerArgs, masterArgs, masterEnv, OVNKUBE, usesOvnSsl } from "./ovnkubeArgs";
import { NODE_PLAN_HASH_ANNOTATION, nodePlanHash } from "./nodeAnnotations";
import { serviceAccountName } from "./rbac";
import type { DaemonSet } from "./objectTypes";

export function ovnkubeControlPlane(model: KubeModel): DaemonSet {
    const hostDirs = [OVNKUBE_LOG, ...(usesOvnSsl(model) ? [ETC_OPENVSWITCH] : [])];
    const ic = model.architecture === "interconnect";
    const name = ic ? CONTROL_PLANE : MASTER;
    // A new node's planned id holds only once the cluster manager restarts after the plan (nodePlanHash).
    const rollOn = { [NODE_PLAN_HASH_ANNOTATION]: nodePlanHash(model) };
    return ovnkubeDaemonSet(
        model,
        name,
        name,
        1,
        {
            serviceAccountName: serviceAccountName(model, "control-plane"),
            hostPID: false,
            // Cluster-wide control loop rather than a per-node agent.
            priorityClassName: "system-cluster-critical",
            nodeSelector: { [CONTROL_PLANE_LABEL]: "", [OS_LABEL]: "linux" },
            // Only the nodes the stack declares as masters, even if the cluster has more control-plane nodes.
            affinity: { nodeAffinity: onNodes(model.masterNodes) },
            containers: [
                {
                    name: ic ? CLUSTER_MANAGER : MASTER,
                    image: model.image,
                    imagePullPolicy: "IfNotPresent",
                    command: [OVNKUBE],
                    args: ic ? clusterManagerArgs(model) : masterArgs(model),
                    env: masterEnv(model),
                    securityContext: { privileged: false, allowPrivilegeEscalation: false },
                    // Requests without limits: throttling or OOM-killing the network controller hurts
                    // every workload, so it may burst; the request reserves its steady share.
                    resources: { requests: { cpu: "100m", memory: "300Mi" } },
                    volumeMounts: mounts(hostDirs),
                    terminationMessagePolicy: "FallbackToLogsOnError",
                },
            ],
            volumes: volumes(hostDirs),
        },
        rollOn,
    );
}
