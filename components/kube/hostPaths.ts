// Host directories the ovnkube pods share with the node. Each entry is one hostPath volume and its
// mount, so a mount can never lose its volume. Only what the ovnkube binary itself (v1.0.0) reads or
// writes on a host whose Open vSwitch and OVN come from distribution packages is mounted; what only
// upstream's ovnkube.sh or its OVS/OVN containers use is left out:
// - /var/run/dbus, /var/log/openvswitch, /var/log/ovn: used by ovs-ctl/ovn-ctl and the daemons'
//   own containers; ovnkube neither logs there nor reads their logs.
// - /var/lib/kubelet: ovnkube v1.0.0 reads nothing there outside DPU mode.
// - /ovn-cert and /etc/ovn from /var/lib/openvswitch: upstream's certificate and database
//   locations; here the OVN client files are the chassis layer's, in /etc/openvswitch.
// - /var/lib/cni/networks: host-local IPAM state of early releases; v1.0.0 allocates from the node
//   subnet in the master.
import type { HostPathVolume, VolumeMount } from "./objectTypes";

export interface HostDir {
    name: string;
    hostPath: string;
    mountPath: string;
    /** `Directory` where the host must already have it (OVS/OVN installed by the host layer). */
    type: "Directory" | "DirectoryOrCreate";
    /** Bind mounts made on the host after the pod started must still appear inside it. */
    propagation?: "HostToContainer";
    readOnly?: boolean;
}

/** A host directory mounted at its own path, as most are: files keep the path the host knows them by. */
const atSamePath = (name: string, path: string, type: HostDir["type"], more: Pick<HostDir, "propagation" | "readOnly"> = {}): HostDir => ({
    name,
    hostPath: path,
    mountPath: path,
    type,
    ...more,
});

/** Where the kubelet's runtime looks for CNI plugins; only the shim installer writes here. */
export const CNI_BIN = atSamePath("host-opt-cni-bin", "/opt/cni/bin", "DirectoryOrCreate");

/** ovnkube -init-node writes the network configuration here once the node is wired. */
export const CNI_CONF = atSamePath("host-etc-cni-netd", "/etc/cni/net.d", "DirectoryOrCreate");

/**
 * The CNI server's socket (`cni/ovn-cni-server.sock`), which the shim, run by the runtime on the
 * host, connects to at this fixed path.
 */
export const OVNKUBE_RUN = atSamePath("host-var-run-ovn-kubernetes", "/var/run/ovn-kubernetes", "DirectoryOrCreate");

/** `-logfile`, and the shim's log (`-cnilogfile` default): the shim runs on the host, so same path there. */
export const OVNKUBE_LOG = atSamePath("host-var-log-ovn-kubernetes", "/var/log/ovn-kubernetes", "DirectoryOrCreate");

/**
 * OVS configuration: the OVN client SSL files the chassis layer writes, and `ovn_k8s.conf`, which
 * ovnkube reads from here by default: mounting the host's hides the image's copy, and the host has
 * none (nothing of the project writes one), so the flags alone configure ovnkube.
 * Read-only: ovnkube changes OVS through its database, never through these files. Same path as on
 * the host, because with SSL ovnkube-node records these file paths in the host's OVS database
 * (`ovs-vsctl set-ssl`) for ovn-controller, which opens them on the host.
 */
export const ETC_OPENVSWITCH = atSamePath("host-etc-openvswitch", "/etc/openvswitch", "Directory", { readOnly: true });

/**
 * The host's OVS and OVN run directories: ovsdb-server's socket and the bridges' OpenFlow sockets
 * for ovs-vsctl/ovs-ofctl, and ovn-controller's pid and control socket, which ovnkube looks for in
 * /var/run/ovn because its image has ovn-appctl. Debian's OVN keeps them in /var/run/ovn, so that
 * directory is mounted as itself (upstream maps the host's /var/run/openvswitch there instead,
 * where its own ovn-controller container puts them).
 */
export const OVS_RUN = atSamePath("host-var-run-openvswitch", "/var/run/openvswitch", "Directory");
export const OVN_RUN = atSamePath("host-var-run-ovn", "/var/run/ovn", "Directory");

/**
 * The OVN client key, certificate and CA that the chassis layer puts on every chassis host (masters
 * included) for ovn-controller. ovnkube presents the same ones to ssl: NB/SB, so no OVN secret ever
 * enters the cluster.
 */
export const OVN_CLIENT_SSL = {
    privateKey: `${ETC_OPENVSWITCH.mountPath}/ovn-controller-privkey.pem`,
    certificate: `${ETC_OPENVSWITCH.mountPath}/ovn-controller-cert.pem`,
    caCertificate: `${ETC_OPENVSWITCH.mountPath}/ovn-controller-cacert.pem`,
} as const;

/**
 * Pod network namespaces that the container runtime creates as bind mounts under /var/run/netns;
 * CNI ADD enters them, so new ones must propagate into the running ovnkube-node container.
 */
export const NETNS = atSamePath("host-var-run-netns", "/var/run/netns", "DirectoryOrCreate", { propagation: "HostToContainer" });

/**
 * The host's root, read-only. ovnkube-node runs `iptables` by name, and in ovn-kubernetes' images
 * /usr/sbin/iptables (with -save, -restore and the ip6tables set) is a wrapper that runs
 * `chroot /host /usr/sbin/iptables`, so the rules are made by the host's own iptables, whichever
 * backend it uses. Read-only, as upstream mounts it: the rules go to the kernel, and /run, where
 * iptables takes its lock, is a mount of its own that a read-only bind of / leaves writable (no
 * recursiveReadOnly is asked for).
 */
export const HOST_ROOT: HostDir = { name: "host-slash", hostPath: "/", mountPath: "/host", type: "Directory", readOnly: true };

/**
 * With node identities: the kubelet's kubeconfig, which ovnkube-node requests its own certificate
 * with, mounted with its directory at the same path (read-only), and the kubelet's client
 * certificates it may name by path (kubeadm's kubelet.conf names /var/lib/kubelet/pki).
 */
export function bootstrapKubeconfigDirs(kubeconfig: string): HostDir[] {
    const dir = kubeconfigDir(kubeconfig);
    // A kubeconfig in /var/lib/kubelet (or its pki) brings the certificates with its own mount.
    const pkiCovered = KUBELET_PKI.mountPath === dir || KUBELET_PKI.mountPath.startsWith(`${dir}/`);
    return [atSamePath("host-kubeconfig", dir, "Directory", { readOnly: true }), ...(pkiCovered ? [] : [KUBELET_PKI])];
}

/** The directory of a kubeconfig's path. Pure. */
export const kubeconfigDir = (kubeconfig: string) => kubeconfig.slice(0, kubeconfig.lastIndexOf("/")) || "/";

/** The kubelet's client certificates, which its kubeconfig may name by path (kubeadm's does). */
export const KUBELET_PKI = atSamePath("host-kubelet-pki", "/var/lib/kubelet/pki", "Directory", { readOnly: true });

/** Where ovnkube-node keeps its node certificate: beside its socket, so a reboot makes it ask anew. */
export const NODE_CERT_DIR = `${OVNKUBE_RUN.mountPath}/certs`;

export function volumes(dirs: readonly HostDir[]): HostPathVolume[] {
    return dirs.map((d) => ({ name: d.name, hostPath: { path: d.hostPath, type: d.type } }));
}

export function mounts(dirs: readonly HostDir[]): VolumeMount[] {
    return dirs.map((d) => ({
        name: d.name,
        mountPath: d.mountPath,
        ...(d.readOnly ? { readOnly: true } : {}),
        ...(d.propagation ? { mountPropagation: d.propagation } : {}),
    }));
}
