// What the masquerade range means: ovnkube puts its masquerade addresses on every node's gateway
// bridge and routes the range to OVN (docs/facts/ovnkube-1.3.md, "masquerade"). It must be local to
// the node (IPv4 link-local; IPv6 unique-local, as upstream's fd69::/112), so no host or router
// outside the node ever has a route to it, and it must leave alone the addresses clouds serve to
// every host there.
import { containsIp, parseNetwork, contains, type Cidr, type IpFamily } from "../../values";

type Add = (path: string, message: string) => void;

interface FamilyRule {
    /** Where the range must lie, and its name. */
    within: Cidr;
    what: string;
    /**
     * The widest range upstream gives ovnkube: the chart's v4MasqueradeSubnet 169.254.0.0/17 and
     * v6MasqueradeSubnet fd69::/112 (helm values-single-node-zone.yaml:41,47); the binary's own
     * defaults are /29 and /125 (go-controller/pkg/config/config.go:190-191). ovnkube uses only the
     * first 5 addresses (capacity.ts).
     */
    widest: number;
    example: string;
    /** Addresses clouds serve on every host's link: a node would route them into OVN instead. */
    cloud: ReadonlyArray<[string, string]>;
    /** A range that leaves them out. */
    clear: string;
}

const RULES: Record<IpFamily, FamilyRule> = {
    ipv4: {
        within: parseNetwork("169.254.0.0/16"),
        what: "link-local",
        widest: 17,
        example: "169.254.0.0/17",
        cloud: [
            ["169.254.169.254", "the instance metadata service (AWS, GCP, Azure, OpenStack)"],
            ["169.254.169.253", "the Amazon VPC DNS resolver"],
            ["169.254.169.123", "the Amazon Time Sync (NTP) service"],
        ],
        clear: "169.254.169.0/24",
    },
    ipv6: {
        within: parseNetwork("fc00::/7"),
        what: "unique-local (fc00::/7)",
        widest: 112,
        example: "fd69::/112",
        cloud: [
            ["fd00:ec2::254", "the Amazon EC2 instance metadata service over IPv6"],
            ["fd00:ec2::253", "the Amazon VPC DNS resolver over IPv6"],
            ["fd00:ec2::123", "the Amazon Time Sync (NTP) service over IPv6"],
        ],
        clear: "fd00:ec2::/64",
    },
};

/** The IPv4 bound, for the docs and tests that name it. */
export const WIDEST_MASQUERADE_PREFIX = RULES.ipv4.widest;

/** Relations: the masquerade range is node-local, no wider than upstream's, and clear of the clouds' services. */
export function masqueradeProblems(masquerade: Cidr | undefined, path: string, add: Add): void {
    if (!masquerade) return;
    const rule = RULES[masquerade.family];
    if (!contains(rule.within, masquerade))
        return add(
            path,
            `${masquerade.text} is not ${rule.what}: every node would route it into OVN and hosts outside could reach its addresses; use a range inside ${rule.within.text}, such as the default ${rule.example}`,
        );
    if (masquerade.prefix < rule.widest)
        add(
            path,
            `${masquerade.text} is wider than upstream's /${rule.widest} (ovnkube uses 5 addresses of it, and every node routes all of it into OVN); use /${rule.widest} to /${masquerade.bits - 3}, such as ${rule.example}`,
        );
    for (const [ip, what] of rule.cloud)
        if (containsIp(masquerade, ip))
            add(
                path,
                `${masquerade.text} covers ${ip}, ${what}: nodes would send it into OVN; use a range that leaves ${rule.clear} out, such as ${rule.example}`,
            );
}
