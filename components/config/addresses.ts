// Where the stack's addresses meet: a host's own addresses must be usable unicast addresses, be
// unique where they identify something, and stay outside every network the cluster routes
// internally. Otherwise the cluster router would swallow the host LAN, or two hosts would answer
// for one address; both only show once traffic flows, so they are refused up front.
import { addressRange, Cidr4, containsIp, isIpv4, overlaps, parseNetwork } from "../values";
import type { NodeConfig, StackConfigInput } from "./types";

type Add = (path: string, message: string) => void;

/** ipaddr.js ranges that never name one reachable host. */
const NOT_A_HOST: Record<string, string> = {
    unspecified: "the unspecified address (0.0.0.0/8)",
    loopback: "a loopback address (127.0.0.0/8): it names every host itself",
    multicast: "a multicast address (224.0.0.0/4)",
    linkLocal: "a link-local address (169.254.0.0/16), which does not leave its link and may change",
    broadcast: "the broadcast address",
};

/** One address of one host, with the config path it came from. */
interface HostIp {
    path: string;
    ip: string;
    node: number;
}

/** A node's addresses that must be unicast host addresses (only the IPv4 ones: DNS names resolve later). */
function hostIps(n: NodeConfig, i: number): HostIp[] {
    const p = `nodes[${i}]`;
    const ips: HostIp[] = [];
    if (isIpv4(n.address)) ips.push({ path: `${p}.address`, ip: n.address, node: i });
    if (n.tunnelIp !== undefined) ips.push({ path: `${p}.tunnelIp`, ip: n.tunnelIp, node: i });
    if (n.gateway) {
        const phys = n.gateway.physicalIp.split("/")[0];
        if (isIpv4(phys)) ips.push({ path: `${p}.gateway.physicalIp`, ip: phys, node: i });
        ips.push({ path: `${p}.gateway.defaultGateway`, ip: n.gateway.defaultGateway, node: i });
    }
    return ips;
}

export interface RoutedSubnets {
    cluster?: Cidr4;
    service?: Cidr4;
    join?: Cidr4;
    transit?: Cidr4;
    masquerade?: Cidr4;
}

export function addressProblems(cfg: StackConfigInput, subnets: RoutedSubnets, add: Add): void {
    const all = cfg.nodes.flatMap(hostIps);
    for (const h of all) {
        const range = addressRange(h.ip);
        if (range in NOT_A_HOST) add(h.path, `${h.ip} is ${NOT_A_HOST[range]}; give the host's own unicast address`);
    }
    swallowedAddresses(cfg, subnets, all, add);
    duplicateAddresses(cfg, add);
    duplicateRampouts(cfg, add);
}

/** The pod, service and join networks are routed inside the cluster: a host address in one of them becomes unreachable. */
function swallowedAddresses(cfg: StackConfigInput, subnets: RoutedSubnets, all: HostIp[], add: Add): void {
    const routed: Array<[string, Cidr4 | undefined, string]> = [
        ["clusterSubnet", subnets.cluster, "the pod network (node subnets are carved from it)"],
        ["serviceSubnet", subnets.service, "the service network"],
        ["joinSubnet", subnets.join, "the join network between the cluster and gateway routers"],
        ["transitSubnet", subnets.transit, "the transit network between the zones"],
        ["masqueradeSubnet", subnets.masquerade, "ovnkube's host masquerade network"],
    ];
    cfg.nodes.forEach((n, i) => {
        if (!n.subnet) return;
        try {
            routed.push([`nodes[${i}].subnet`, parseNetwork(n.subnet), `the node subnet of nodes[${i}]`]);
        } catch {
            // reported by the semantic checks
        }
    });
    for (const [path, net, what] of routed) {
        const inside = net ? all.filter((h) => containsIp(net, h.ip)) : [];
        if (net && inside.length > 0)
            add(path, `${net.text} contains ${inside.map((h) => `${h.path} ${h.ip}`).join(", ")}: ${what} would swallow the host LAN; choose one that no host address is in`);
    }
}

/** Addresses that identify one host, or one gateway, must not be shared. */
function duplicateAddresses(cfg: StackConfigInput, add: Add): void {
    const sshPort = (n: NodeConfig) => n.port ?? cfg.ssh?.port ?? 22;
    // Two nodes may share an address behind NAT with different SSH ports; one address and port is one host.
    const ssh = new Map<string, number>();
    cfg.nodes.forEach((n, i) => {
        const key = `${n.address}:${sshPort(n)}`;
        if (ssh.has(key)) add(`nodes[${i}].address`, `${n.address} port ${sshPort(n)} is already the SSH address of nodes[${ssh.get(key)}]: two nodes would configure one host`);
        else ssh.set(key, i);
    });
    const nodeIps = cfg.nodes.flatMap((n, i) => [
        ...(isIpv4(n.address) ? [{ node: i, ip: n.address, what: "address" }] : []),
        ...(n.tunnelIp && n.tunnelIp !== n.address ? [{ node: i, ip: n.tunnelIp, what: "tunnelIp" }] : []),
    ]);
    const physical = new Map<string, number>();
    cfg.nodes.forEach((n, i) => {
        const g = n.gateway;
        if (!g) return;
        const p = `nodes[${i}].gateway`;
        const phys = g.physicalIp.split("/")[0];
        if (physical.has(phys)) add(`${p}.physicalIp`, `${phys} is already the physical IP of nodes[${physical.get(phys)}].gateway: two gateway routers would answer for it`);
        else physical.set(phys, i);
        // A gateway's physical IP may be its own node's address (a shared NIC keeps it), never another node's.
        for (const o of nodeIps)
            if (o.node !== i && o.ip === phys) add(`${p}.physicalIp`, `${phys} is the ${o.what} of nodes[${o.node}]: that host would lose traffic to the gateway router`);
        for (const o of nodeIps)
            if (o.ip === g.defaultGateway)
                add(`${p}.defaultGateway`, `${g.defaultGateway} is the ${o.what} of nodes[${o.node}], a cluster host, not the LAN's router; give the router of the physical network`);
    });
}

/** A rampout subnet pins its pods' traffic to one gateway: two gateways cannot both have it. */
function duplicateRampouts(cfg: StackConfigInput, add: Add): void {
    const seen: Array<{ path: string; net: Cidr4 }> = [];
    cfg.nodes.forEach((n, i) =>
        (n.gateway?.rampoutSubnets ?? []).forEach((r, k) => {
            let net: Cidr4;
            try {
                net = parseNetwork(r);
            } catch {
                return; // reported by the semantic checks
            }
            const path = `nodes[${i}].gateway.rampoutSubnets[${k}]`;
            const other = seen.find((s) => !s.path.startsWith(`nodes[${i}].`) && overlaps(s.net, net));
            if (other) add(path, `${r} overlaps ${other.path} ${other.net.text}: its pods' traffic can leave through one gateway only`);
            seen.push({ path, net });
        }),
    );
}
