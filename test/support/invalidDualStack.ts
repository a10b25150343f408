// Invalid dual-stack and IPv6 configs: the dev cluster in ovnkube mode (interconnect) made dual
// stack, one mutation each, with the exact path it must be reported at and the reason.
import { interconnect, type Mutation } from "./invalidConfigs";

/** Dual stack, IPv4 first: a ULA beside each range, pinned pairs and a v6 node IP per node. */
export const dual = (c: Record<string, any>): void => {
    interconnect(c);
    c.clusterSubnet = "192.168.0.0/16,fd00:10:244::/48";
    c.serviceSubnet = "172.30.0.0/16,fd00:10:96::/112";
    c.joinSubnet = "100.64.0.0/16,fd98::/64";
    c.nodes[0].subnet = "192.168.1.0/24,fd00:10:244:1::/64";
    c.nodes[1].subnet = "192.168.2.0/24,fd00:10:244:2::/64";
    c.nodes.forEach((n: any, i: number) => (n.nodeIp = `${n.address},fd00:10::${11 + i}`));
};

const second = (list: string) => list.split(",")[1];

/** IPv6 only: every range and node address IPv6. */
export const ipv6Only = (c: Record<string, any>): void => {
    dual(c);
    for (const k of ["clusterSubnet", "serviceSubnet", "joinSubnet"]) c[k] = second(c[k]);
    delete c.hostSubnetLength;
    c.nodes.forEach((n: any, i: number) => {
        n.address = second(n.nodeIp);
        delete n.nodeIp;
        if (n.subnet) n.subnet = second(n.subnet);
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

/** A list setting with its second entry replaced. */
const withSecond = (list: string, v6: string) => `${list.split(",")[0]},${v6}`;

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
        /is not the first address of nodes\[1\]\.nodeIp \(10\.0\.0\.11\): ovnkube-node tunnels from the Node's primary address/,
    ],
    [
        "two IPv4 cluster subnets",
        on(dual, (c) => (c.clusterSubnet = "192.168.0.0/16,10.128.0.0/14")),
        "clusterSubnet",
        /both entries are IPv4/,
    ],
    ["three cluster subnets", on(dual, (c) => (c.clusterSubnet += ",10.128.0.0/14")), "clusterSubnet", /one of each joined by a comma/],
    [
        "a cluster subnet list with a space",
        on(dual, (c) => (c.clusterSubnet = "192.168.0.0/16, fd00:10:244::/48")),
        "clusterSubnet",
        /joined by a comma/,
    ],
    [
        "a cluster subnet of no family",
        on(dual, (c) => (c.clusterSubnet = "192.168.0.0/16,fd00:10:244::/129")),
        "clusterSubnet",
        /IPv4 or IPv6 CIDR/,
    ],
    [
        "an IPv4-only service range in a dual-stack cluster",
        on(dual, (c) => (c.serviceSubnet = "172.30.0.0/16")),
        "serviceSubnet",
        /has 1 CIDRs for the cluster's 2 address families/,
    ],
    [
        "service ranges in the other order",
        on(dual, (c) => (c.serviceSubnet = "fd00:10:96::/112,172.30.0.0/16")),
        "serviceSubnet",
        /fd00:10:96::\/112 is IPv6, but clusterSubnet's first entry is IPv4/,
    ],
    ["an IPv6-only join range in a dual-stack cluster", on(dual, (c) => (c.joinSubnet = "fd98::/64")), "joinSubnet", /has 1 CIDRs/],
    [
        "two IPv4 transit ranges",
        on(dual, (c) => (c.transitSubnet = "100.88.0.0/16,100.89.0.0/16")),
        "transitSubnet",
        /100\.89\.0\.0\/16 is IPv4, but clusterSubnet's second entry is IPv6/,
    ],
    [
        "an IPv4 length in an IPv6-only cluster",
        on(ipv6Only, (c) => (c.hostSubnetLength = 24)),
        "hostSubnetLength",
        /no IPv4 range: IPv6 node subnets are \/64/,
    ],
    [
        "an IPv6 cluster subnet no wider than a node subnet",
        on(
            dual,
            (c) => ((c.clusterSubnet = withSecond(c.clusterSubnet, "fd00:10:244::/64")), c.nodes.forEach((n: any) => delete n.subnet)),
        ),
        "clusterSubnet",
        /fd00:10:244::\/64 leaves no room for ovnkube's \/64 IPv6 node subnets/,
    ],
    [
        "one pinned subnet in a dual-stack cluster",
        on(dual, (c) => (c.nodes[0].subnet = "192.168.1.0/24")),
        "nodes[0].subnet",
        /has 1 pinned subnets for the cluster's 2/,
    ],
    [
        "a pinned IPv6 subnet outside the cluster's",
        on(dual, (c) => (c.nodes[0].subnet = withSecond(c.nodes[0].subnet, "fd00:99::/64"))),
        "nodes[0].subnet",
        /fd00:99::\/64 is not inside clusterSubnet fd00:10:244::\/48/,
    ],
    [
        "two nodes pinned to one IPv6 subnet",
        on(dual, (c) => (c.nodes[1].subnet = withSecond(c.nodes[1].subnet, "fd00:10:244:1::/64"))),
        "nodes[1].subnet",
        /overlaps nodes\[0\]\.subnet fd00:10:244:1::\/64/,
    ],
    [
        "a pinned IPv6 subnet with host bits",
        on(dual, (c) => (c.nodes[0].subnet = withSecond(c.nodes[0].subnet, "fd00:10:244:1::5/64"))),
        "nodes[0].subnet",
        /not a network address \(did you mean fd00:10:244:1::\/64\?\)/,
    ],
    [
        "pinned subnets in the other order",
        on(dual, (c) => (c.nodes[0].subnet = "fd00:10:244:1::/64,192.168.1.0/24")),
        "nodes[0].subnet",
        /is IPv6, but clusterSubnet's first entry is IPv4/,
    ],
    [
        "a dual-stack node without its node IPs",
        on(dual, (c) => delete c.nodes[1].nodeIp),
        "nodes[1].nodeIp",
        /required in a dual-stack cluster/,
    ],
    [
        "node IPs in the other order",
        on(dual, (c) => (c.nodes[1].nodeIp = "fd00:10::12,10.0.0.11")),
        "nodes[1].nodeIp",
        /fd00:10::12 is IPv6, but clusterSubnet's first entry is IPv4/,
    ],
    ["three node IPs", on(dual, (c) => (c.nodes[1].nodeIp += ",fd00:10::99")), "nodes[1].nodeIp", /one of each joined by a comma/],
    ["a link-local IPv6 node IP", on(dual, (c) => (c.nodes[1].nodeIp = "10.0.0.11,fe80::11")), "nodes[1].nodeIp", /link-local/],
    ["a multicast IPv6 node IP", on(dual, (c) => (c.nodes[1].nodeIp = "10.0.0.11,ff02::1")), "nodes[1].nodeIp", /multicast/],
    ["the IPv6 loopback as a node IP", on(dual, (c) => (c.nodes[1].nodeIp = "10.0.0.11,::1")), "nodes[1].nodeIp", /loopback/],
    [
        "an IPv6 node IP inside the pod network",
        on(dual, (c) => (c.nodes[1].nodeIp = "10.0.0.11,fd00:10:244:7::1")),
        "clusterSubnet",
        /contains nodes\[1\]\.nodeIp fd00:10:244:7::1/,
    ],
    [
        "two nodes with one IPv6 node IP",
        on(dual, (c) => (c.nodes[2].nodeIp = "10.0.0.12,fd00:10::12")),
        "nodes[2].nodeIp",
        /fd00:10::12 is already nodes\[1\]\.nodeIp/,
    ],
    [
        "an IPv6 service range overlapping the pod network",
        on(dual, (c) => (c.serviceSubnet = withSecond(c.serviceSubnet, "fd00:10:244:ff::/112"))),
        "serviceSubnet",
        /overlaps clusterSubnet fd00:10:244::\/48/,
    ],
    [
        "an IPv6 join range overlapping the pod network",
        on(dual, (c) => (c.joinSubnet = withSecond(c.joinSubnet, "fd00:10:244:fe::/64"))),
        "joinSubnet",
        /overlaps clusterSubnet fd00:10:244::\/48/,
    ],
    [
        "the IPv6 transit range equal to the join range",
        on(dual, (c) => (c.transitSubnet = "100.88.0.0/16,fd98::/64")),
        "transitSubnet",
        /fd98::\/64 overlaps joinSubnet fd98::\/64/,
    ],
    [
        "a routable IPv6 masquerade range",
        on(dual, (c) => (c.masqueradeSubnet = "169.254.0.0/17,2001:db8::/112")),
        "masqueradeSubnet",
        /2001:db8::\/112 is not unique-local/,
    ],
    [
        "an IPv6 masquerade range wider than upstream's",
        on(dual, (c) => (c.masqueradeSubnet = "169.254.0.0/17,fd69::/100")),
        "masqueradeSubnet",
        /wider than upstream's \/112/,
    ],
    [
        "an IPv6 masquerade range too small for ovnkube's addresses",
        on(dual, (c) => (c.masqueradeSubnet = "169.254.0.0/17,fd69::/126")),
        "masqueradeSubnet",
        /fd69::\/126 is too small: ovnkube takes its first 5/,
    ],
    [
        "an IPv6 masquerade range over the cloud's metadata service",
        on(dual, (c) => (c.masqueradeSubnet = "169.254.0.0/17,fd00:ec2::/112")),
        "masqueradeSubnet",
        /covers fd00:ec2::254/,
    ],
    [
        "a public IPv6 pod network",
        on(dual, (c) => (c.clusterSubnet = withSecond(c.clusterSubnet, "2a01:4f8::/48"))),
        "clusterSubnet",
        /2a01:4f8::\/48 is not private address space \(fc00::\/7\)/,
    ],
    [
        "a public IPv6 service range",
        on(dual, (c) => (c.serviceSubnet = withSecond(c.serviceSubnet, "2a01:4f8:1::/112"))),
        "serviceSubnet",
        /not private address space \(fc00::\/7\)/,
    ],
    [
        "a link-local IPv6 pod network",
        on(dual, (c) => (c.clusterSubnet = withSecond(c.clusterSubnet, "fe80:10:244::/48"))),
        "clusterSubnet",
        /link-local space/,
    ],
    [
        "a multicast IPv6 service range",
        on(dual, (c) => (c.serviceSubnet = withSecond(c.serviceSubnet, "ff05::/112"))),
        "serviceSubnet",
        /multicast space/,
    ],
    [
        "an IPv4-mapped IPv6 join range",
        on(dual, (c) => (c.joinSubnet = withSecond(c.joinSubnet, "::ffff:0:0/112"))),
        "joinSubnet",
        /IPv4-mapped/,
    ],
    [
        "an IPv6 join range too small for two routers",
        on(dual, (c) => (c.joinSubnet = withSecond(c.joinSubnet, "fd98::/126"))),
        "joinSubnet",
        /\/126 is too small for the cluster router and a gateway router/,
    ],
    [
        "an IPv6 transit range too small for the node-ids",
        on(dual, (c) => (c.transitSubnet = "100.88.0.0/16,fd97::/120")),
        "transitSubnet",
        /fd97::\/120 holds node-ids up to 254/,
    ],
    [
        "an IPv6 pod network in Pulumi mode",
        (c) => (c.clusterSubnet = "192.168.0.0/16,fd00:10:244::/48"),
        "clusterSubnet",
        /IPv6 needs ovnkube mode/,
    ],
    ["node IPs in Pulumi mode", (c) => (c.nodes[0].nodeIp = "10.0.0.10"), "nodes[0].nodeIp", /applies to ovnkube mode only/],
    ["an IPv6 tunnel in Pulumi mode", (c) => (c.nodes[1].tunnelIp = "fd00:10::11"), "nodes[1].tunnelIp", /IPv6 tunnel needs ovnkube mode/],
    [
        "an IPv4 node in an IPv6-only cluster",
        on(ipv6Only, (c) => ((c.nodes[1].address = "10.0.0.11"), delete c.nodes[1].tunnelIp)),
        "nodes[1].address",
        /10\.0\.0\.11 is IPv4, but the cluster is IPv6 only/,
    ],
    [
        "an IPv4 service range in an IPv6-only cluster",
        on(ipv6Only, (c) => (c.serviceSubnet = "172.30.0.0/16")),
        "serviceSubnet",
        /172\.30\.0\.0\/16 is IPv4, but clusterSubnet's range is IPv6/,
    ],
    [
        "the API server at an IPv6 Service address",
        on(ipv6Only, (c) => (c.apiServer.url = "https://[fd00:10:96::1]:6443")),
        "apiServer.url",
        /Service address in serviceSubnet fd00:10:96::\/112 \(the kubernetes Service's VIP\)/,
    ],
    ["the API server at the IPv6 loopback", on(ipv6Only, (c) => (c.apiServer.url = "https://[::1]:6443")), "apiServer.url", /loopback/],
    [
        "an API server URL with an unbracketed IPv6 address",
        on(ipv6Only, (c) => (c.apiServer.url = "https://fd00:10::10:6443")),
        "apiServer.url",
        /http:\/\/host\[:port\]/,
    ],
    [
        "an IPv4 node subnet length leaving no pods",
        on(dual, (c) => (c.hostSubnetLength = 29)),
        "hostSubnetLength",
        /pod addresses per node/,
    ],
    [
        "a pinned IPv6 subnet too small for pods",
        on(dual, (c) => (c.nodes[0].subnet = withSecond(c.nodes[0].subnet, "fd00:10:244:1::/126"))),
        "nodes[0].subnet",
        /leaves 0 pod addresses per node/,
    ],
    [
        "an IPv6 node address given as a CIDR",
        on(dual, (c) => (c.nodes[1].nodeIp = "10.0.0.11,fd00:10::12/64")),
        "nodes[1].nodeIp",
        /one IPv4 or IPv6 address, or one of each/,
    ],
];
