// Whether the overlay MTU fits the underlay. A pod's packet crosses to another node inside a
// tunnel packet that must not exceed the MTU of the device carrying the node's tunnel address;
// otherwise large packets between nodes are dropped (OVS does not fragment tunnel packets) while
// small ones pass, which looks like a healthy cluster until a transfer stalls. Pure:
// ./tunnelMtuCheck.ts reads each host.
import { checked, familyOf } from "../values";

/**
 * What each encapsulation adds around a pod's packet on an IPv4 underlay: outer IPv4 (20) + UDP (8)
 * + its header (Geneve 8, VXLAN 8) + for Geneve OVN's one option carrying the logical ports (8) +
 * the inner Ethernet header (14). STT is not judged: OVS segments its TCP-like frames itself.
 */
export const TUNNEL_OVERHEAD = { geneve: 58, vxlan: 50 } as const;
/** An IPv6 underlay's outer header is 40 bytes, 20 more than IPv4's. */
const IPV6_OUTER_EXTRA = 20;

/** Bytes the tunnel adds from this tunnel address, or undefined for an encapsulation not judged here. */
export function tunnelOverhead(encapType: string, tunnelIp?: string): number | undefined {
    const base = (TUNNEL_OVERHEAD as Record<string, number>)[encapType];
    return base === undefined ? undefined : base + (tunnelIp !== undefined && familyOf(tunnelIp) === "ipv6" ? IPV6_OUTER_EXTRA : 0);
}

/** Read on the host: `<device> <mtu>` of the device holding the tunnel address; nothing when none does. */
export function readTunnelDeviceScript(tunnelIp: string): string {
    const ip = checked("tunnelIp", tunnelIp, "ip");
    return `dev=$(ip -o addr show | awk -v ip=${ip} '{ split($4, a, "/"); if (a[1] == ip) { print $2; exit } }'); [ -z "$dev" ] || echo "$dev $(cat /sys/class/net/$dev/mtu)"`;
}

export interface TunnelDevice {
    device: string;
    mtu: number;
}

export function parseTunnelDevice(stdout: string): TunnelDevice | undefined {
    const m = /^(\S+) (\d+)$/.exec(stdout.trim());
    return m ? { device: m[1], mtu: Number(m[2]) } : undefined;
}

export interface TunnelMtuPlan {
    node: string;
    /** The overlay MTU: pods' and management ports'. */
    mtu: number;
    encapType: string;
    tunnelIp: string;
}

/** Why the plan's MTU must not be applied on this host, or undefined. */
export function tunnelMtuRefusal(plan: TunnelMtuPlan, found: TunnelDevice | undefined): string | undefined {
    const overhead = tunnelOverhead(plan.encapType, plan.tunnelIp);
    if (overhead === undefined || found === undefined) return undefined;
    if (plan.mtu + overhead <= found.mtu) return undefined;
    return (
        `mtu ${plan.mtu} does not fit ${plan.node}'s underlay: ${plan.encapType} adds ${overhead} bytes, so tunnel packets of ${plan.mtu + overhead} bytes ` +
        `would leave through ${found.device} (its tunnel address ${plan.tunnelIp}), whose MTU is ${found.mtu}; ` +
        `set mtu to at most ${found.mtu - overhead}, or raise the underlay's MTU first`
    );
}
