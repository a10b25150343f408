// What ovnkube-node needs of a Kubernetes node's host once user-defined networks are on
// (docs/facts/udn.md §5): systemd's private D-Bus socket, to which its UDN host isolation
// subscribes for kubelet restarts (go-controller/pkg/node/udn_isolation.go:143,326-330 at v1.3.0:
// without it ovnkube-node exits, and the node's pods lose the default network too), and VRF devices
// in the kernel, one per primary UDN (go-controller/pkg/node/gateway_udn.go:257). Pure: the check
// that reads the host is ./udnHostCheck.ts; the script only reads.
/** A Kubernetes node whose ovnkube-node runs with network segmentation, named as messages name it. */
export interface UdnHostPlan {
    node: string;
}

/** Prints `systemd=yes|no` and `vrf=loaded|module|builtin|absent|unknown`. */
export const READ_UDN_HOST_SCRIPT = `set -u
if [ -S /run/systemd/private ]; then echo systemd=yes; else echo systemd=no; fi
if [ -d /sys/module/vrf ]; then echo vrf=loaded; exit 0; fi
if command -v modinfo >/dev/null 2>&1 && modinfo -n vrf >/dev/null 2>&1; then echo vrf=module; exit 0; fi
cfg=""
if [ -r /proc/config.gz ]; then cfg=$(zcat /proc/config.gz 2>/dev/null | grep '^CONFIG_NET_VRF=' || true)
elif [ -r "/boot/config-$(uname -r)" ]; then cfg=$(grep '^CONFIG_NET_VRF=' "/boot/config-$(uname -r)" || true)
else echo vrf=unknown; exit 0
fi
case "$cfg" in
CONFIG_NET_VRF=y) echo vrf=builtin ;;
CONFIG_NET_VRF=m) echo vrf=module ;;
*) echo vrf=absent ;;
esac
`;

export interface UdnHostFacts {
    systemdBus: boolean;
    vrf: "loaded" | "module" | "builtin" | "absent" | "unknown";
}

export function parseUdnHost(stdout: string): UdnHostFacts {
    const value = (key: string) => new RegExp(`^${key}=(\\S+)$`, "m").exec(stdout)?.[1];
    const vrf = value("vrf");
    return {
        systemdBus: value("systemd") === "yes",
        vrf: vrf === "loaded" || vrf === "module" || vrf === "builtin" || vrf === "absent" ? vrf : "unknown",
    };
}

/** Why the host cannot run ovnkube-node with user-defined networks, or undefined. */
export function udnHostRefusal(plan: UdnHostPlan, facts: UdnHostFacts): string | undefined {
    const missing = [
        ...(facts.systemdBus
            ? []
            : [
                  "no systemd (no /run/systemd/private), whose D-Bus ovnkube-node's UDN host isolation subscribes to: ovnkube-node would exit, and the node's pods lose their network",
              ]),
        ...(facts.vrf === "absent" ? ["a kernel without VRF (CONFIG_NET_VRF), which every primary UDN needs on every node"] : []),
    ];
    if (missing.length === 0) return undefined;
    return `${plan.node} cannot run ovnkube-node with ovnkube.features.networkSegmentation: ${missing.join("; and ")}; run the node on systemd with a VRF-capable kernel, or turn networkSegmentation off`;
}
