// What a lab node's containerd and kubelet run with. Pure: every path and address comes from the
// caller. Where it differs from a production node, the reason is this machine (no
// CAP_SYS_RESOURCE, a cgroup v1/v2 hybrid, one kernel shared by every host).
import { stringify } from "yaml";

/** containerd's socket on the node (its default). */
export const CONTAINERD_SOCKET = "/run/containerd/containerd.sock";
export const CONTAINERD_CONFIG = "/etc/containerd/config.toml";
export const KUBELET_CONFIG = "/var/lib/kubelet/config.yaml";
/** The cluster CA, where kubeadm puts it: the kubelet checks the API server's client certificates against it. */
export const CLUSTER_CA = "/etc/kubernetes/pki/ca.crt";
/** The kubelet's API, as on every node. */
export const KUBELET_PORT = 10250;

/**
 * containerd 2.1's CRI config (version 3). `restrict_oom_score_adj`: root here lacks
 * CAP_SYS_RESOURCE, and runc fails to lower a container's OOM score ("can't get final child's PID
 * from pipe: EOF") unless the score is kept at least the runtime's own. The sandbox image is the
 * lab's, pinned so it is never collected.
 */
export function containerdConfig(sandboxImage: string, cniBinDirs: readonly string[]): string {
    const q = (s: string) => `'${s}'`;
    return [
        "version = 3",
        "root = '/var/lib/containerd'",
        "state = '/run/containerd'",
        "[grpc]",
        `  address = ${q(CONTAINERD_SOCKET)}`,
        "[plugins.'io.containerd.cri.v1.images'.pinned_images]",
        `  sandbox = ${q(sandboxImage)}`,
        "[plugins.'io.containerd.cri.v1.runtime']",
        "  restrict_oom_score_adj = true",
        "[plugins.'io.containerd.cri.v1.runtime'.cni]",
        `  bin_dirs = [${cniBinDirs.map(q).join(", ")}]`,
        "  conf_dir = '/etc/cni/net.d'",
        "",
    ].join("\n");
}

export interface KubeletConfigInput {
    /** The node's address: the kubelet serves its API there. */
    address: string;
    /** The node's own cgroup root, made beforehand in every hierarchy (cgroups.ts). */
    cgroupRoot: string;
}

/**
 * The KubeletConfiguration. Requests to the kubelet's API (logs, exec) must carry a client
 * certificate of the cluster CA and are authorised by the API server, as kubeadm sets it up.
 * `failCgroupV1: false`: this machine mounts cgroup v1 controllers (v2 holds none). No DNS
 * exists in the lab, so no resolv.conf is handed to pods.
 */
export function kubeletConfig(input: KubeletConfigInput): string {
    return stringify({
        apiVersion: "kubelet.config.k8s.io/v1beta1",
        kind: "KubeletConfiguration",
        address: input.address,
        port: KUBELET_PORT,
        readOnlyPort: 0,
        authentication: { anonymous: { enabled: false }, webhook: { enabled: true }, x509: { clientCAFile: CLUSTER_CA } },
        authorization: { mode: "Webhook" },
        containerRuntimeEndpoint: `unix://${CONTAINERD_SOCKET}`,
        cgroupDriver: "cgroupfs",
        cgroupRoot: input.cgroupRoot,
        failCgroupV1: false,
        failSwapOn: false,
        resolvConf: "",
        // Every host shares this machine's disk: evicting on its fill level would evict on another lab's behalf.
        evictionHard: { "memory.available": "0%", "nodefs.available": "0%", "imagefs.available": "0%" },
        imageGCHighThresholdPercent: 100,
        imageGCLowThresholdPercent: 99,
    });
}

export interface KubeletArgvInput {
    bin: string;
    nodeName: string;
    /** One address per family, the primary first: a dual-stack node reports both as InternalIP. */
    nodeIps: readonly string[];
    kubeconfig: string;
}

export function kubeletArgv(k: KubeletArgvInput): string[] {
    return [
        k.bin,
        `--config=${KUBELET_CONFIG}`,
        `--kubeconfig=${k.kubeconfig}`,
        `--hostname-override=${k.nodeName}`,
        `--node-ip=${k.nodeIps.join(",")}`,
    ];
}
