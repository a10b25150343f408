// Where the stack's addresses meet. Every configured address (SSH, tunnel, gateway physical IP and
// next hop, the API server, the identity webhook) is checked, by one relation each, against every
// range the cluster routes internally, the network and broadcast address of every LAN the stack
// names, and the addresses that identify other nodes. Otherwise the cluster router would swallow
// the host LAN, or two hosts would answer for one address; both only show once traffic flows.
import { addressRange, Cidr4, containsIp, familyOf, isIpv4, networkOf, overlaps, parseNetwork, toInt } from "../../values";
import { tunnelIpOf } from "../../model/nodes";
import { listOf } from "../../config/families";
import type { NodeConfig, StackConfigInput } from "../../config/types";

type Add = (path: string, message: string) => void;

/** ipaddr.js ranges that never name one reachable host. */
const NOT_A_HOST: Record<string, string> = {
    unspecified: "the unspecified address (0.0.0.0/8, ::)",
    loopback: "a loopback address (127.0.0.0/8, ::1): it names every host itself",
    multicast: "a multicast address (224.0.0.0/4, ff00::/8)",
    linkLocal: "a link-local address (169.254.0.0/16, fe80::/10), which does not leave its link and may change",
    broadcast: "the broadcast address",
    ipv4Mapped: "an IPv4-mapped IPv6 address (::ffff:0:0/96): give the IPv4 address itself",
};

/** What an address stands for; `identity` addresses name one host and may not be another node's. */
type Kind = "address" | "tunnelIp" | "nodeIp" | "physicalIp" | "defaultGateway" | "apiServer" | "webhookAddress";
const IDENTITY: ReadonlySet<Kind> = new Set(["address", "tunnelIp", "nodeIp", "physicalIp"]);

/** One configured address (IPv4 or IPv6), with the config path it came from and the node it belongs to. */
export interface ConfiguredIp {
    path: string;
    ip: string;
    kind: Kind;
    node?: number;
}

/** A range the cluster uses, with the config path that decides it. */
export interface UsedRange {
    path: string;
    net: Cidr4;
    what: string;
}

/** The host part of an http(s) URL (an IPv6 address without its brackets). */
export const urlHost = (url: string): string | undefined => {
    const m = /^https?:\/\/(?:\[([^\]/]+)\]|([^/:]+))/.exec(url);
    return m?.[1] ?? m?.[2];
};

/** The host part of an http(s) URL when it is an IPv4 address. */
export function urlIpv4(url: string): string | undefined {
    const host = urlHost(url);
    return host !== undefined && isIpv4(host) ? host : undefined;
}

/** Every address the stack configures (DNS names resolve later and are not checked here). */
export function configuredIps(cfg: StackConfigInput): ConfiguredIp[] {
    const ips: ConfiguredIp[] = cfg.nodes.flatMap((n: NodeConfig, i): ConfiguredIp[] => {
        const p = `nodes[${i}]`;
        const out: ConfiguredIp[] = [];
        if (familyOf(n.address)) out.push({ path: `${p}.address`, ip: n.address, kind: "address", node: i });
        if (n.tunnelIp !== undefined) out.push({ path: `${p}.tunnelIp`, ip: n.tunnelIp, kind: "tunnelIp", node: i });
        // A node IP that is its tunnel IP or SSH address is the same identity, named once.
        for (const ip of listOf(n.nodeIp))
            if (ip !== n.tunnelIp && ip !== n.address) out.push({ path: `${p}.nodeIp`, ip, kind: "nodeIp", node: i });
        if (n.gateway) {
            const phys = n.gateway.physicalIp.split("/")[0];
            if (isIpv4(phys)) out.push({ path: `${p}.gateway.physicalIp`, ip: phys, kind: "physicalIp", node: i });
            out.push({ path: `${p}.gateway.defaultGateway`, ip: n.gateway.defaultGateway, kind: "defaultGateway", node: i });
        }
        return out;
    });
    const api = urlHost(cfg.apiServer.url);
    if (api && familyOf(api)) ips.push({ path: "apiServer.url", ip: api, kind: "apiServer" });
    const webhook = cfg.ovnkube?.identity?.webhookAddress;
    if (webhook !== undefined && familyOf(webhook))
        ips.push({ path: "ovnkube.identity.webhookAddress", ip: webhook, kind: "webhookAddress" });
    return ips;
}

/** What each range setting is, for messages. */
const RANGE_WHAT: Record<string, string> = {
    clusterSubnet: "the pod network (every node subnet is carved from it)",
    serviceSubnet: "the service network",
    joinSubnet: "the join network between the cluster and gateway routers",
    transitSubnet: "the transit network between the zones",
    masqueradeSubnet: "ovnkube's host masquerade network",
};

/**
 * The ranges routed inside the cluster, of every family (`named`: by path, e.g. `joinSubnet[1]`),
 * and the pinned node subnets: an address in one of them is unreachable from the hosts.
 */
export function routedRanges(cfg: StackConfigInput, named: ReadonlyArray<[string, Cidr4 | undefined]>): UsedRange[] {
    const ranges: Array<[string, Cidr4 | undefined, string]> = named.map(([path, net]) => [
        path,
        net,
        RANGE_WHAT[path.replace(/\[\d+\]$/, "")],
    ]);
    cfg.nodes.forEach((n, i) =>
        listOf(n.subnet).forEach((s, k) => ranges.push([`nodes[${i}].subnet`, parseOrUndefined(s), `the node subnet of nodes[${i}]`])),
    );
    return ranges.flatMap(([path, net, what]) => (net ? [{ path, net, what }] : []));
}

/** The LANs the stack names: each gateway's physical network. */
function lans(cfg: StackConfigInput): UsedRange[] {
    return cfg.nodes.flatMap((n, i) => {
        if (!n.gateway) return [];
        try {
            return [
                { path: `nodes[${i}].gateway.physicalIp`, net: networkOf(n.gateway.physicalIp), what: `the LAN of nodes[${i}].gateway` },
            ];
        } catch {
            return []; // reported by the gateway checks
        }
    });
}

export function addressProblems(cfg: StackConfigInput, named: ReadonlyArray<[string, Cidr4 | undefined]>, add: Add): void {
    const all = configuredIps(cfg);
    for (const h of all) {
        const range = addressRange(h.ip);
        if (range in NOT_A_HOST) add(h.path, `${h.ip} is ${NOT_A_HOST[range]}; give the host's own unicast address`);
    }
    insideRange(all, routedRanges(cfg, named), add);
    notNetworkOrBroadcast(all, lans(cfg), add);
    otherNodesAddresses(cfg, all, add);
    duplicateRampouts(cfg, add);
}

/** Relation: no configured address lies in a range the cluster routes; reported at the range. */
function insideRange(all: ConfiguredIp[], ranges: UsedRange[], add: Add): void {
    for (const r of ranges) {
        const inside = all.filter((h) => containsIp(r.net, h.ip));
        if (inside.length > 0)
            add(
                r.path,
                `${r.net.text} contains ${inside.map((h) => `${h.path} ${h.ip}`).join(", ")}: ${r.what} would swallow it; choose one that no host address is in`,
            );
    }
}

/** Relation: an address inside a LAN is neither that LAN's network nor its broadcast address. */
function notNetworkOrBroadcast(all: ConfiguredIp[], nets: UsedRange[], add: Add): void {
    for (const lan of nets) {
        if (lan.net.prefix >= 31) continue; // point-to-point links use both addresses
        const edges = new Map([
            [lan.net.base, "network"],
            [lan.net.base + (1n << BigInt(lan.net.bits - lan.net.prefix)) - 1n, "broadcast"],
        ]);
        for (const h of all) {
            const edge = edges.get(toInt(h.ip));
            if (edge) add(h.path, `${h.ip} is the ${edge} address of ${lan.what} ${lan.net.text}, not a host on it`);
        }
    }
}

/**
 * Relation: an address that names a host (SSH address, tunnel IP, gateway physical IP) names one
 * node only, and no next hop or webhook points at another node's identity by mistake. Two nodes
 * may share an SSH address behind NAT with different ports; one address and port is one host.
 */
function otherNodesAddresses(cfg: StackConfigInput, all: ConfiguredIp[], add: Add): void {
    const sshPort = (n: NodeConfig) => n.port ?? cfg.ssh?.port ?? 22;
    const ssh = new Map<string, number>();
    cfg.nodes.forEach((n, i) => {
        const key = `${n.address}:${sshPort(n)}`;
        if (ssh.has(key))
            add(
                `nodes[${i}].address`,
                `${n.address} port ${sshPort(n)} is already the SSH address of nodes[${ssh.get(key)}]: two nodes would configure one host`,
            );
        else ssh.set(key, i);
    });
    // In node order; the tunnel IP a node uses counts also when it defaults to its address.
    const identities: ConfiguredIp[] = cfg.nodes.flatMap((n, i) => {
        const own = all.filter((h) => h.node === i && IDENTITY.has(h.kind) && h.kind !== "tunnelIp");
        const tunnel = tunnelIpOf(n);
        return tunnel ? [...own, { path: `nodes[${i}].tunnelIp`, ip: tunnel, kind: "tunnelIp" as const, node: i }] : own;
    });
    identities.forEach((h, k) => {
        const first = identities
            .slice(0, k)
            .find((o) => o.ip === h.ip && o.node !== h.node && !(o.kind === "address" && h.kind === "address"));
        const implicit =
            h.kind === "tunnelIp" && cfg.nodes[h.node!].tunnelIp === undefined ? " (the tunnel IP defaults to the node's address)" : "";
        if (first) add(h.path, `${h.ip}${implicit} is already ${first.path}: two nodes would answer for one address`);
    });
    for (const h of all.filter((x) => x.kind === "defaultGateway")) {
        const host = identities.find((o) => o.ip === h.ip && !(o.node === h.node && o.kind === "physicalIp"));
        if (host) add(h.path, `${h.ip} is ${host.path}, a cluster host, not the LAN's router; give the router of the physical network`);
    }
}

/** A rampout subnet pins its pods' traffic to one gateway: two gateways cannot both have it. */
function duplicateRampouts(cfg: StackConfigInput, add: Add): void {
    const seen: Array<{ path: string; net: Cidr4 }> = [];
    cfg.nodes.forEach((n, i) =>
        (n.gateway?.rampoutSubnets ?? []).forEach((r, k) => {
            const net = parseOrUndefined(r);
            if (!net) return; // reported by the semantic checks
            const path = `nodes[${i}].gateway.rampoutSubnets[${k}]`;
            const other = seen.find((s) => !s.path.startsWith(`nodes[${i}].`) && overlaps(s.net, net));
            if (other) add(path, `${r} overlaps ${other.path} ${other.net.text}: its pods' traffic can leave through one gateway only`);
            seen.push({ path, net });
        }),
    );
}

function parseOrUndefined(text: string): Cidr4 | undefined {
    try {
        return parseNetwork(text);
    } catch {
        return undefined; // reported where the field is checked
    }
}
