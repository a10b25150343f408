// The pod and service ranges are routed into the cluster by every node: a range of public address
// space hides the real hosts at those addresses from every pod and node. Refused unless the stack
// says the space is its own (`allowPublicClusterRanges: true`).
import { addressAt, addressRange, contains, parseNetwork, type Cidr4 } from "../../values";

type Add = (path: string, message: string) => void;

export const ALLOW_PUBLIC = "allowPublicClusterRanges";

/** Address space no one routes on the Internet: RFC 1918 and RFC 6598's shared space; IPv6 unique-local (RFC 4193). */
const NON_PUBLIC_TEXT = ["10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16", "100.64.0.0/10", "fc00::/7"];
const NON_PUBLIC: readonly Cidr4[] = NON_PUBLIC_TEXT.map(parseNetwork);

/** Relation: clusterSubnet and serviceSubnet lie in private address space, unless the stack allows public space. */
export function publicRangeProblems(ranges: ReadonlyArray<[string, Cidr4 | undefined]>, allowPublic: boolean, add: Add): void {
    if (allowPublic) return;
    for (const [path, range] of ranges)
        if (range && !NON_PUBLIC.some((p) => contains(p, range)))
            add(
                path,
                `${range.text} is not private address space (${NON_PUBLIC_TEXT.filter((p) => parseNetwork(p).family === range.family).join(", ")}): every node would route it into the cluster, and hosts with those addresses would become unreachable; choose a private range, or set ${ALLOW_PUBLIC}: true if the space is yours`,
            );
}

/** ipaddr.js ranges that cannot hold a network of the cluster's own. */
const SPECIAL: Record<string, string> = {
    unspecified: "the unspecified address",
    loopback: "loopback space, which every host keeps to itself",
    linkLocal: "link-local space, which no router forwards",
    multicast: "multicast space",
    ipv4Mapped: "IPv4-mapped IPv6 space (::ffff:0:0/96)",
    broadcast: "the broadcast address",
};

/** Relation: the routed ranges (cluster, service, join, transit) are unicast space a router forwards. */
export function specialRangeProblems(ranges: ReadonlyArray<[string, Cidr4 | undefined]>, add: Add): void {
    for (const [path, range] of ranges) {
        const kind = range && addressRange(addressAt(range, 0));
        if (kind && kind in SPECIAL)
            add(
                path,
                `${range.text} lies in ${SPECIAL[kind]}: pods, Services and routers need unicast addresses that routers forward; choose a private range`,
            );
    }
}
