// DaemonSet ovnkube-master: `ovnkube -init-master` on the control-plane nodes that the model names
// as masters. Several may run: they elect one leader through the lock in their namespace.
//
// Unlike the seeds' ovnkube-master, which also ran the OVN databases and northd in the pod, this
// one runs the master controller only: NB, SB and northd live on the central host (host layer).
// It therefore needs no host PIDs and no privilege, only the host network, and of the host's
// directories only /etc/openvswitch, read-only, for the OVN client SSL files when NB/SB use ssl:.
import type { KubeModel } from "../model/types";
import { ovnkubeDaemonSet } from "./daemonset";
import { ETC_OPENVSWITCH, mounts, volumes } from "./host-paths";
import { CONTROL_PLANE_LABEL, MASTER, OS_LABEL } from "./names";
import { masterArgs, OVNKUBE, ovnkubeEnv, usesOvnSsl } from "./ovnkube-args";
import type { DaemonSet } from "./types";

export function ovnkubeMaster(model: KubeModel): DaemonSet {
    const hostDirs = usesOvnSsl(model) ? [{ ...ETC_OPENVSWITCH, readOnly: true }] : [];
    return ovnkubeDaemonSet(model, MASTER, 1, {
        hostPID: false,
        // Cluster-wide control loop rather than a per-node agent.
        priorityClassName: "system-cluster-critical",
        nodeSelector: { [CONTROL_PLANE_LABEL]: "", [OS_LABEL]: "linux" },
        // Only the nodes the stack declares as masters, even if the cluster has more control-plane
        // nodes. Matched on the node's name (the kubernetes.io/hostname label may differ from it).
        affinity: {
            nodeAffinity: {
                requiredDuringSchedulingIgnoredDuringExecution: {
                    nodeSelectorTerms: [
                        { matchFields: [{ key: "metadata.name", operator: "In", values: [...model.masterNodes] }] },
                    ],
                },
            },
        },
        containers: [
            {
                name: MASTER,
                image: model.image,
                imagePullPolicy: "IfNotPresent",
                command: [OVNKUBE],
                args: masterArgs(model),
                env: ovnkubeEnv(model),
                securityContext: { privileged: false, allowPrivilegeEscalation: false },
                // Requests without limits: throttling or OOM-killing the network controller hurts
                // every workload, so it may burst; the request reserves its steady share.
                resources: { requests: { cpu: "100m", memory: "300Mi" } },
                ...(hostDirs.length > 0 ? { volumeMounts: mounts(hostDirs) } : {}),
                terminationMessagePolicy: "FallbackToLogsOnError",
            },
        ],
        volumes: hostDirs.length > 0 ? volumes(hostDirs) : undefined,
    });
}
