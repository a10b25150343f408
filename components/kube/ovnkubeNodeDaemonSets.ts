// DaemonSets ovnkube-node: `ovnkube -init-node` on every node, masters included, one DaemonSet per
// node group of the model (nodes that take the same gateway flags), each held to its group's nodes
// by the label of their plans (./nodeAnnotations); with interconnect the same process also runs
// the zone's network controller (`-init-ovnkube-controller`), which writes the node's own NB. It
// wires the node to its logical switch, runs its shared gateway and serves CNI ADD/DEL for the
// pods there, so it runs in the host's network and PID namespaces (CNI requests may name pods'
// network namespaces by /proc/<pid> path) with a privileged container (veths, routes, OVS ports,
// iptables, sysctls).
import type { KubeModel, OvnkubeNodeGroup } from "../model/types";
import { ovnkubeDaemonSet } from "./daemonset";
import {
    bootstrapKubeconfigDirs,
    CNI_BIN,
    CNI_CONF,
    ETC_OPENVSWITCH,
    HOST_ROOT,
    mounts,
    NETNS,
    OVN_RUN,
    OVNKUBE_LOG,
    OVNKUBE_RUN,
    OVS_RUN,
    volumes,
} from "./hostPaths";
import { CONTROLLER, NODE, NODE_GROUP_LABEL, OS_LABEL } from "./objectNames";
import { OVN_CONTAINER_DIRS, OVN_RUN_FROM_IMAGE, ovnContainers } from "./ovnContainers";
import { serviceAccountName } from "./rbac";
import { nodeArgs, nodeEnv, OVNKUBE } from "./ovnkubeArgs";
import type { Container, DaemonSet } from "./objectTypes";

/** The CNI shim as ovn-kubernetes images ship it, and its name for the kubelet. */
export const CNI_SHIM_IN_IMAGE = "/usr/libexec/cni/ovn-k8s-cni-overlay";
export const CNI_SHIM_NAME = "ovn-k8s-cni-overlay";
/** Written by ovnkube -init-node once the node is wired; the kubelet then reports the node ready. */
export const CNI_CONF_FILE = "10-ovn-kubernetes.conf";

/** What the ovnkube-node container shares with the host (see ./hostPaths.ts for each, and for what is left out). */
export const NODE_HOST_DIRS = [OVNKUBE_RUN, OVNKUBE_LOG, CNI_CONF, NETNS, OVS_RUN, OVN_RUN, ETC_OPENVSWITCH, HOST_ROOT] as const;

/**
 * Copies the shim next to the other CNI plugins, as upstream's ovnkube.sh does before it starts
 * ovnkube. Copy to a temporary name, then rename: the runtime may be executing the old binary, and
 * overwriting a running binary in place fails (text file busy) or lets a half-written file run.
 */
function installCniShim(model: KubeModel): Container {
    const target = `${CNI_BIN.mountPath}/${CNI_SHIM_NAME}`;
    return {
        name: "install-cni-shim",
        image: model.image,
        imagePullPolicy: "IfNotPresent",
        command: ["/bin/sh", "-c", `set -e; cp -f ${CNI_SHIM_IN_IMAGE} ${target}.tmp; mv -f ${target}.tmp ${target}`],
        securityContext: { privileged: false, allowPrivilegeEscalation: false },
        resources: { requests: { cpu: "10m", memory: "16Mi" } },
        volumeMounts: mounts([CNI_BIN]),
        terminationMessagePolicy: "FallbackToLogsOnError",
    };
}

export function ovnkubeNode(model: KubeModel, group: OvnkubeNodeGroup): DaemonSet {
    const fromImage = model.ovnSource === "image";
    // From the image, the pod's OVN makes the host's OVN run directory instead of a package.
    const nodeDirs = fromImage ? NODE_HOST_DIRS.map((d) => (d === OVN_RUN ? OVN_RUN_FROM_IMAGE : d)) : NODE_HOST_DIRS;
    const hostDirs = [...nodeDirs, ...(model.identity ? bootstrapKubeconfigDirs(model.identity.bootstrapKubeconfig) : [])];
    const ovnkube: Container = {
        // With interconnect the one process is the zone's controller and the node, as upstream names it.
        name: model.architecture === "interconnect" ? CONTROLLER : NODE,
        image: model.image,
        imagePullPolicy: "IfNotPresent",
        command: [OVNKUBE],
        args: nodeArgs(model, group),
        env: nodeEnv(model),
        securityContext: { privileged: true },
        // Requests without limits, for the reason given on ovnkube-master.
        resources: { requests: { cpu: "100m", memory: "300Mi" } },
        volumeMounts: mounts(hostDirs),
        // Not ready until the CNI config exists, so a rolling update waits for a node to be wired
        // again before it moves on to the next: upstream's `ovn-kube-util readiness-probe -t
        // ovnkube-node` checks exactly this file.
        readinessProbe: { exec: { command: ["test", "-f", `${CNI_CONF.mountPath}/${CNI_CONF_FILE}`] }, periodSeconds: 5 },
        terminationMessagePolicy: "FallbackToLogsOnError",
    };
    // 10%: restarting ovnkube-node leaves running pods' datapath in OVS untouched, so large groups
    // can update in bounded batches; new pods on those nodes wait for the CNI a few seconds.
    return ovnkubeDaemonSet(model, group.name, NODE, "10%", {
        serviceAccountName: serviceAccountName(model, "node"),
        hostPID: true,
        // Per-node agent without which no pod on the node gets a network.
        priorityClassName: "system-node-critical",
        // Exactly the group's nodes, by the label their plans carry: the groups are disjoint, so
        // every node runs one ovnkube-node, and only once its plan is on its Node.
        nodeSelector: { [OS_LABEL]: "linux", [NODE_GROUP_LABEL]: group.name },
        initContainers: [installCniShim(model)],
        // ovnkube first: the pod's main container, whose logs and exec a bare kubectl picks.
        containers: fromImage ? [ovnkube, ...ovnContainers(model)] : [ovnkube],
        volumes: volumes([
            ...hostDirs,
            CNI_BIN,
            ...(fromImage ? OVN_CONTAINER_DIRS.filter((d) => !hostDirs.some((h) => h.name === d.name)) : []),
        ]),
    });
}

/** One DaemonSet per node group, in the model's order. */
export function ovnkubeNodes(model: KubeModel): DaemonSet[] {
    return model.nodeGroups.map((group) => ovnkubeNode(model, group));
}
