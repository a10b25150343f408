// Host directories the ovnkube pods share with the node. Each entry is one hostPath volume and its
// mount, so a mount can never lose its volume. Paths are the ones the CNI runtime, Open vSwitch and
// OVN use on the host; the CNI names follow the seeds' DaemonSets.
import type { HostPathVolume, VolumeMount } from "./types";

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

/** Where the CNI shim is installed for the kubelet: mounted aside, since the image has its own /opt/cni/bin. */
export const CNI_BIN: HostDir = {
    name: "host-opt-cni-bin",
    hostPath: "/opt/cni/bin",
    mountPath: "/host/opt/cni/bin",
    type: "DirectoryOrCreate",
};

/** ovnkube -init-node writes the network configuration here once the node is wired. */
export const CNI_CONF: HostDir = {
    name: "host-etc-cni-netd",
    hostPath: "/etc/cni/net.d",
    mountPath: "/etc/cni/net.d",
    type: "DirectoryOrCreate",
};

/** State of the ovn-k8s-cni-overlay network kept across pod restarts. */
export const CNI_NETWORKS: HostDir = {
    name: "host-var-lib-cni-networks-ovn-k8s-cni-overlay",
    hostPath: "/var/lib/cni/networks/ovn-k8s-cni-overlay",
    mountPath: "/var/lib/cni/networks/ovn-k8s-cni-overlay",
    type: "DirectoryOrCreate",
};

/** OVS configuration: the system-id, and the OVN client SSL files the chassis layer writes. */
export const ETC_OPENVSWITCH: HostDir = {
    name: "host-etc-openvswitch",
    hostPath: "/etc/openvswitch",
    mountPath: "/etc/openvswitch",
    type: "Directory",
};

/** The host's OVS and ovn-controller: their sockets, logs and configuration. */
export const OVS_OVN_DIRS: readonly HostDir[] = [
    { name: "host-var-run-openvswitch", hostPath: "/var/run/openvswitch", mountPath: "/var/run/openvswitch", type: "Directory" },
    { name: "host-var-run-ovn", hostPath: "/var/run/ovn", mountPath: "/var/run/ovn", type: "Directory" },
    { name: "host-var-log-openvswitch", hostPath: "/var/log/openvswitch", mountPath: "/var/log/openvswitch", type: "DirectoryOrCreate" },
    { name: "host-var-log-ovn", hostPath: "/var/log/ovn", mountPath: "/var/log/ovn", type: "DirectoryOrCreate" },
    ETC_OPENVSWITCH,
];

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
export const NETNS: HostDir = {
    name: "host-var-run-netns",
    hostPath: "/var/run/netns",
    mountPath: "/var/run/netns",
    type: "DirectoryOrCreate",
    propagation: "HostToContainer",
};

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
