// DaemonSet ovnkube-node: `ovnkube -init-node` on every Linux node, masters included. It wires the
// node to its logical switch and serves CNI ADD/DEL for the pods there, so it runs in the host's
// network and PID namespaces (CNI requests name pods' network namespaces by host path and PID) with
// a privileged container (veths, routes, OVS ports, iptables).
import type { KubeModel } from "../model/types";
import { ovnkubeDaemonSet } from "./daemonset";
import { CNI_BIN, CNI_CONF, CNI_NETWORKS, mounts, NETNS, OVS_OVN_DIRS, volumes } from "./host-paths";
import { NODE, OS_LABEL } from "./names";
import { nodeArgs, OVNKUBE, ovnkubeEnv } from "./ovnkube-args";
import type { Container, DaemonSet } from "./types";

/** The CNI shim as ovn-kubernetes images ship it, and its name for the kubelet. */
export const CNI_SHIM_IN_IMAGE = "/usr/libexec/cni/ovn-k8s-cni-overlay";
export const CNI_SHIM_NAME = "ovn-k8s-cni-overlay";
/** Written by ovnkube -init-node once the node is wired; the kubelet then reports the node ready. */
export const CNI_CONF_FILE = "10-ovn-kubernetes.conf";

/**
 * Copies the shim next to the other CNI plugins. Copy to a temporary name, then rename: the kubelet
 * may be executing the old binary, and overwriting a running binary in place fails (text file busy)
 * or lets a half-written file run.
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

export function ovnkubeNode(model: KubeModel): DaemonSet {
    const hostDirs = [CNI_BIN, CNI_CONF, CNI_NETWORKS, ...OVS_OVN_DIRS, NETNS];
    const ovnkube: Container = {
        name: NODE,
        image: model.image,
        imagePullPolicy: "IfNotPresent",
        command: [OVNKUBE],
        args: nodeArgs(model),
        env: ovnkubeEnv(model),
        securityContext: { privileged: true },
        // Requests without limits, for the reason given on ovnkube-master.
        resources: { requests: { cpu: "100m", memory: "300Mi" } },
        volumeMounts: mounts(hostDirs),
        // Not ready until the CNI config exists, so a rolling update waits for a node to be wired
        // again before it moves on to the next.
        readinessProbe: { exec: { command: ["test", "-f", `${CNI_CONF.mountPath}/${CNI_CONF_FILE}`] }, periodSeconds: 5 },
        terminationMessagePolicy: "FallbackToLogsOnError",
    };
    // 10%: restarting ovnkube-node leaves running pods' datapath in OVS untouched, so large clusters
    // can update in bounded batches; new pods on those nodes wait for the CNI a few seconds.
    return ovnkubeDaemonSet(model, NODE, "10%", {
        hostPID: true,
        // Per-node agent without which no pod on the node gets a network.
        priorityClassName: "system-node-critical",
        nodeSelector: { [OS_LABEL]: "linux" },
        initContainers: [installCniShim(model)],
        containers: [ovnkube],
        volumes: volumes(hostDirs),
    });
}
