// Whether the stack's encapType may reach a running cluster. OVN's ovn-controller builds tunnels
// only to chassis that registered an encap of a type it has itself, so an encap type change rolled
// over the hosts one by one cuts every pod on a converted node off from every pod on the others
// until the last host is done; and with vxlan, ovn-northd switches to vxlan's tunnel keys, which
// cap the cluster at 4096 logical datapaths and 2048 ports per logical switch. ovnkube v1.0 writes
// geneve itself (validate refuses anything else in ovnkube mode). So the type of a running
// cluster is fixed: the Southbound says what it is. Pure: ./tunnelTypeCheck.ts reads the central.

/** One Southbound Encap row: the chassis' tunnel endpoint and type. */
export interface RegisteredEncap {
    ip: string;
    type: string;
}

/** Read on the central: every Encap row, as JSON; nothing when the Southbound is not running yet. */
export const READ_ENCAPS_SCRIPT = "ovn-sbctl --timeout=10 --format=json --columns=ip,type list Encap 2>/dev/null || true";

export function parseEncaps(stdout: string): RegisteredEncap[] {
    if (stdout.trim() === "") return [];
    const table = JSON.parse(stdout) as { data?: unknown[][] };
    return (table.data ?? [])
        .filter((r) => typeof r[0] === "string" && typeof r[1] === "string")
        .map((r) => ({ ip: r[0] as string, type: r[1] as string }));
}

/**
 * Why `encapType` must not be applied, or undefined: refused when a node of the stack (by its
 * tunnel IP) is registered in the Southbound without an encap of that type.
 */
export function tunnelTypeRefusal(encapType: string, tunnelIps: Record<string, string>, encaps: RegisteredEncap[]): string | undefined {
    const running: string[] = [];
    const types = new Set<string>();
    for (const [node, ip] of Object.entries(tunnelIps)) {
        const registered = encaps.filter((e) => e.ip === ip).map((e) => e.type);
        if (registered.length === 0 || registered.includes(encapType)) continue;
        running.push(`${node} (${registered.join(",")})`);
        registered.forEach((t) => types.add(t));
    }
    if (running.length === 0) return undefined;
    const was = [...types].sort().join(" and ");
    return (
        `${encapType} cannot replace ${was} on a running cluster: ${running.join(", ")} ${running.length === 1 ? "is" : "are"} registered with ${was} tunnels. ` +
        `OVN builds tunnels only between chassis that share an encap type, so while the change reaches the hosts one by one, pods on changed nodes lose every pod on the others` +
        (encapType === "vxlan" ? `; vxlan also caps OVN at 4096 logical switches and routers and 2048 ports per switch` : "") +
        `. Keep encapType ${was}, or destroy the cluster and create it again with ${encapType}.`
    );
}
