// Invalid dual-stack and IPv6 configs: the dev cluster in ovnkube mode (interconnect) made dual
// stack, one mutation each, with the exact path it must be reported at and the reason.
import { interconnect, type Mutation } from "./invalidConfigs";

/** Dual stack, IPv4 first: a ULA of each range, pinned pairs and a v6 node IP per node. */
export const dual = (c: Record<string, any>): void => {
    interconnect(c);
    c.clusterSubnet = ["192.168.0.0/16", "fd00:10:244::/48"];
    c.hostSubnetLength = { ipv4: 24, ipv6: 64 };
    c.serviceSubnet = ["172.30.0.0/16", "fd00:10:96::/112"];
    c.joinSubnet = ["100.64.0.0/16", "fd98::/64"];
    c.nodes[0].subnet = ["192.168.1.0/24", "fd00:10:244:1::/64"];
    c.nodes[1].subnet = ["192.168.2.0/24", "fd00:10:244:2::/64"];
    c.nodes.forEach((n: any, i: number) => (n.nodeIps = [n.address, `fd00:10::${11 + i}`]));
};

/** IPv6 only: every range and node address IPv6. */
export const ipv6Only = (c: Record<string, any>): void => {
    dual(c);
    for (const k of ["clusterSubnet", "serviceSubnet", "joinSubnet"]) c[k] = c[k][1];
    c.hostSubnetLength = { ipv6: 64 };
    c.nodes.forEach((n: any, i: number) => {
        n.address = n.nodeIps[1];
        delete n.nodeIps;
        if (n.subnet) n.subnet = n.subnet[1];
        delete n.gateway;
        n.roles = n.roles.filter((r: string) => r !== "gateway");
        n.tunnelIp = `fd00:10::${11 + i}`;
    });
    c.apiServer.url = "https://[fd00:10::10]:6443";
};

const on =
    (base: (c: Record<string, any>) => void, change: (c: Record<string, any>) => void): Mutation =>
    (c) => {
        base(c);
        change(c);
    };

export const INVALID_DUAL_STACK: Array<[string, Mutation, string, RegExp?]> = [
    [
        "an IPv6-only centralized cluster (the centrals' listeners are IPv4)",
        on(ipv6Only, (c) => {
            c.ovnkube = { ...c.ovnkube, architecture: "centralized" };
            c.nodes[0].roles = ["central", "master"];
        }),
        "nodes[0].tunnelIp",
        /the central node needs an IPv4 address for the NB\/SB listeners, got fd00:10::11/,
    ],
    [
        "a tunnel IP other than the primary node IP",
        on(dual, (c) => (c.nodes[1].tunnelIp = "10.0.0.51")),
        "nodes[1].tunnelIp",
        /is not nodes\[1\]\.nodeIps\[0\] \(10\.0\.0\.11\): ovnkube-node tunnels from the Node's primary address/,
    ],
    [
        "two IPv4 cluster subnets",
        on(dual, (c) => (c.clusterSubnet = ["192.168.0.0/16", "10.128.0.0/14"])),
        "clusterSubnet[1]",
        /IPv4 like clusterSubnet\[0\]/,
    ],
    ["three cluster subnets", on(dual, (c) => c.clusterSubnet.push("10.128.0.0/14")), "clusterSubnet", /more than 2 items/],
    ["an empty cluster subnet list", on(dual, (c) => (c.clusterSubnet = [])), "clusterSubnet", /fewer than 1 items/],
    ["a cluster subnet of no family", on(dual, (c) => (c.clusterSubnet[1] = "fd00:10:244::/129")), "clusterSubnet[1]", /IPv4 or IPv6 CIDR/],
    [
        "an IPv4-only service range in a dual-stack cluster",
        on(dual, (c) => (c.serviceSubnet = "172.30.0.0/16")),
        "serviceSubnet",
        /has 1 CIDRs for the cluster's 2 address families/,
    ],
    [
        "service ranges in the other order",
        on(dual, (c) => c.serviceSubnet.reverse()),
        "serviceSubnet[0]",
        /is IPv6, but clusterSubnet\[0\] is IPv4/,
    ],
    ["an IPv6-only join range in a dual-stack cluster", on(dual, (c) => (c.joinSubnet = ["fd98::/64"])), "joinSubnet", /has 1 CIDRs/],
    [
        "two IPv4 transit ranges",
        on(dual, (c) => (c.transitSubnet = ["100.88.0.0/16", "100.89.0.0/16"])),
        "transitSubnet[1]",
        /is IPv4, but clusterSubnet\[1\] is IPv6/,
    ],
    [
        "three masquerade ranges",
        on(dual, (c) => (c.masqueradeSubnet = ["169.254.0.0/17", "fd69::/112", "fd68::/112"])),
        "masqueradeSubnet",
        /more than 2 items/,
    ],
    ["an IPv6 node subnet length other than 64", on(dual, (c) => (c.hostSubnetLength.ipv6 = 56)), "hostSubnetLength.ipv6", /\/64 only/],
    [
        "an IPv6 node subnet length in an IPv4 cluster",
        (c) => (interconnect(c), (c.hostSubnetLength = { ipv4: 24, ipv6: 64 })),
        "hostSubnetLength.ipv6",
        /no IPv6 range/,
    ],
    [
        "a plain number as the length of an IPv6-only cluster",
        on(ipv6Only, (c) => (c.hostSubnetLength = 24)),
        "hostSubnetLength",
        /IPv4 node subnet length/,
    ],
    [
        "an IPv6 cluster subnet no longer than its node subnets",
        on(dual, (c) => {
            c.clusterSubnet[1] = "fd00:10:244::/64";
            for (const n of c.nodes) delete n.subnet;
        }),
        "hostSubnetLength.ipv6",
        /\/64 is not longer than clusterSubnet \/64/,
    ],
    ["an unknown key in hostSubnetLength", on(dual, (c) => (c.hostSubnetLength.ipv5 = 64)), "hostSubnetLength.ipv5", /not a known setting/],
    [
        "one pinned subnet in a dual-stack cluster",
        on(dual, (c) => (c.nodes[0].subnet = "192.168.1.0/24")),
        "nodes[0].subnet",
        /has 1 pinned subnets for the cluster's 2/,
    ],
    [
        "a pinned IPv6 subnet outside the cluster's",
        on(dual, (c) => (c.nodes[0].subnet[1] = "fd00:99::/64")),
        "nodes[0].subnet[1]",
        /not inside clusterSubnet fd00:10:244::\/48/,
    ],
    [
        "two nodes pinned to one IPv6 subnet",
        on(dual, (c) => (c.nodes[1].subnet[1] = "fd00:10:244:1::/64")),
        "nodes[1].subnet[1]",
        /overlaps nodes\[0\]\.subnet/,
    ],
    [
        "a pinned IPv6 subnet with host bits",
        on(dual, (c) => (c.nodes[0].subnet[1] = "fd00:10:244:1::5/64")),
        "nodes[0].subnet[1]",
        /not a network address \(did you mean fd00:10:244:1::\/64\?\)/,
    ],
    [
        "pinned subnets in the other order",
        on(dual, (c) => c.nodes[0].subnet.reverse()),
        "nodes[0].subnet[0]",
        /is IPv6, but clusterSubnet\[0\] is IPv4/,
    ],
    [
        "a dual-stack node without node IPs",
        on(dual, (c) => delete c.nodes[1].nodeIps),
        "nodes[1].nodeIps",
        /required in a dual-stack cluster/,
    ],
    [
        "node IPs in the other order",
        on(dual, (c) => c.nodes[1].nodeIps.reverse()),
        "nodes[1].nodeIps[0]",
        /is IPv6, but clusterSubnet\[0\] is IPv4/,
    ],
    ["three node IPs", on(dual, (c) => c.nodes[1].nodeIps.push("fd00:10::99")), "nodes[1].nodeIps", /more than 2 items/],
    ["a link-local IPv6 node IP", on(dual, (c) => (c.nodes[1].nodeIps[1] = "fe80::11")), "nodes[1].nodeIps[1]", /link-local/],
    ["a multicast IPv6 node IP", on(dual, (c) => (c.nodes[1].nodeIps[1] = "ff02::1")), "nodes[1].nodeIps[1]", /multicast/],
    ["the IPv6 loopback as a node IP", on(dual, (c) => (c.nodes[1].nodeIps[1] = "::1")), "nodes[1].nodeIps[1]", /loopback/],
    [
        "an IPv6 node IP inside the pod network",
        on(dual, (c) => (c.nodes[1].nodeIps[1] = "fd00:10:244:7::1")),
        "clusterSubnet[1]",
        /contains nodes\[1\]\.nodeIps\[1\] fd00:10:244:7::1/,
    ],
    [
        "two nodes with one IPv6 node IP",
        on(dual, (c) => (c.nodes[2].nodeIps[1] = c.nodes[1].nodeIps[1])),
        "nodes[2].nodeIps[1]",
        /is already nodes\[1\]\.nodeIps\[1\]/,
    ],
    [
        "an IPv6 service range overlapping the pod network",
        on(dual, (c) => (c.serviceSubnet[1] = "fd00:10:244:ff::/112")),
        "serviceSubnet[1]",
        /overlaps clusterSubnet\[1\]/,
    ],
    [
        "an IPv6 join range overlapping the pod network",
        on(dual, (c) => (c.joinSubnet[1] = "fd00:10:244:fe::/64")),
        "joinSubnet[1]",
        /overlaps clusterSubnet\[1\]/,
    ],
    [
        "the IPv6 transit range equal to the join range",
        on(dual, (c) => (c.transitSubnet = ["100.88.0.0/16", "fd98::/64"])),
        "transitSubnet[1]",
        /overlaps joinSubnet\[1\]/,
    ],
    [
        "a routable IPv6 masquerade range",
        on(dual, (c) => (c.masqueradeSubnet = ["169.254.0.0/17", "2001:db8::/112"])),
        "masqueradeSubnet[1]",
        /not unique-local/,
    ],
    [
        "an IPv6 masquerade range wider than upstream's",
        on(dual, (c) => (c.masqueradeSubnet = ["169.254.0.0/17", "fd69::/100"])),
        "masqueradeSubnet[1]",
        /wider than upstream's \/112/,
    ],
    [
        "an IPv6 masquerade range too small for ovnkube's addresses",
        on(dual, (c) => (c.masqueradeSubnet = ["169.254.0.0/17", "fd69::/126"])),
        "masqueradeSubnet[1]",
        /too small: ovnkube takes its first 5/,
    ],
    [
        "an IPv6 masquerade range over the cloud's metadata service",
        on(dual, (c) => (c.masqueradeSubnet = ["169.254.0.0/17", "fd00:ec2::/112"])),
        "masqueradeSubnet[1]",
        /covers fd00:ec2::254/,
    ],
    [
        "a public IPv6 pod network",
        on(dual, (c) => (c.clusterSubnet[1] = "2a01:4f8::/48")),
        "clusterSubnet[1]",
        /not private address space \(fc00::\/7\)/,
    ],
    [
        "a public IPv6 service range",
        on(dual, (c) => (c.serviceSubnet[1] = "2a01:4f8:1::/112")),
        "serviceSubnet[1]",
        /not private address space/,
    ],
    ["a link-local IPv6 pod network", on(dual, (c) => (c.clusterSubnet[1] = "fe80:10:244::/48")), "clusterSubnet[1]", /link-local space/],
    ["a multicast IPv6 service range", on(dual, (c) => (c.serviceSubnet[1] = "ff05::/112")), "serviceSubnet[1]", /multicast space/],
    ["an IPv4-mapped IPv6 join range", on(dual, (c) => (c.joinSubnet[1] = "::ffff:0:0/112")), "joinSubnet[1]", /IPv4-mapped/],
    [
        "an IPv6 join range too small for two routers",
        on(dual, (c) => (c.joinSubnet[1] = "fd98::/126")),
        "joinSubnet[1]",
        /too small for the cluster router and a gateway router/,
    ],
    [
        "an IPv6 transit range too small for the node-ids",
        on(dual, (c) => (c.transitSubnet = ["100.88.0.0/16", "fd97::/120"])),
        "transitSubnet[1]",
        /holds node-ids up to 254/,
    ],
    [
        "an IPv6 pod network in Pulumi mode",
        (c) => (c.clusterSubnet = ["192.168.0.0/16", "fd00:10:244::/48"]),
        "clusterSubnet",
        /IPv6 needs ovnkube mode/,
    ],
    ["node IPs in Pulumi mode", (c) => (c.nodes[0].nodeIps = ["10.0.0.10"]), "nodes[0].nodeIps", /applies to ovnkube mode only/],
    ["an IPv6 tunnel in Pulumi mode", (c) => (c.nodes[1].tunnelIp = "fd00:10::11"), "nodes[1].tunnelIp", /IPv6 tunnel needs ovnkube mode/],
    [
        "an IPv4 node in an IPv6-only cluster",
        on(ipv6Only, (c) => ((c.nodes[1].address = "10.0.0.11"), delete c.nodes[1].tunnelIp)),
        "nodes[1].address",
        /is IPv4, but the cluster is IPv6 only/,
    ],
    [
        "an IPv4 service range in an IPv6-only cluster",
        on(ipv6Only, (c) => (c.serviceSubnet = "172.30.0.0/16")),
        "serviceSubnet",
        /is IPv4, but clusterSubnet is IPv6/,
    ],
    [
        "the API server at an IPv6 Service address",
        on(ipv6Only, (c) => (c.apiServer.url = "https://[fd00:10:96::1]:6443")),
        "apiServer.url",
        /Service address in serviceSubnet fd00:10:96::\/112 \(the kubernetes Service's VIP\)/,
    ],
    ["the API server at the IPv6 loopback", on(ipv6Only, (c) => (c.apiServer.url = "https://[::1]:6443")), "apiServer.url", /loopback/],
    [
        "an IPv4 node subnet length leaving no pods",
        on(dual, (c) => (c.hostSubnetLength.ipv4 = 29)),
        "hostSubnetLength.ipv4",
        /pod addresses per node/,
    ],
];
