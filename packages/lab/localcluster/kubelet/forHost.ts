// The kubelet options of one local-cluster host, as the cluster wires them: the host's identity
// and namespaces, CNI_PATH with Debian's plugins, and paths that belong to this host alone. A
// Debian 13 or unstable host has its own root, so the kubelet's usual paths are right; a Debian 12 host
// shares this machine's /var and /etc, so its kubelet keeps its files in the host's private /run
// (a tmpfs that goes with the host).
import * as path from "node:path";
import { hasOwnRoot, hostOs, type LocalCluster, type LocalHost } from "../state";
import type { StartKubeletOptions } from "./start";

/** CNI_PATH: where ovn-kubernetes installs its shim, then Debian's containernetworking-plugins. */
export const LAB_CNI_BIN_DIRS = ["/opt/cni/bin", "/usr/lib/cni"];

const SHARED_ROOT_PATHS = { rootDir: "/run/kubelet", podLogsDir: "/run/kubelet/pod-logs", cniConfDir: "/run/kubelet/cni/net.d" };

export function kubeletOptionsForHost(
    cluster: LocalCluster,
    host: LocalHost,
    kubeconfigPath: string,
    extra: Partial<Omit<StartKubeletOptions, "nodeName" | "holderPid" | "internalIP" | "netns">> = {},
): StartKubeletOptions {
    return {
        nodeName: host.name,
        kubeconfigPath,
        holderPid: host.holderPid,
        internalIP: host.ip,
        netns: host.netns,
        stateDir: path.join(cluster.dir, "kubelet", host.name),
        cniBinDirs: LAB_CNI_BIN_DIRS,
        ...(hasOwnRoot(hostOs(host)) ? {} : SHARED_ROOT_PATHS),
        ...extra,
    };
}
