// What the masquerade range means: ovnkube puts its masquerade addresses on every node's gateway
// bridge and routes the range to OVN (docs/facts/ovnkube-1.3.md, "masquerade"). It must be
// link-local, so no host or router outside the node ever has a route to it, and it must leave
// alone the link-local addresses clouds serve to every host.
import { containsIp, parseNetwork, contains, type Cidr4 } from "../../values";

type Add = (path: string, message: string) => void;

const PATH = "masqueradeSubnet";
/** IPv4 link-local (RFC 3927). */
const LINK_LOCAL = parseNetwork("169.254.0.0/16");
/** Addresses clouds serve on every host's link: a node would route them into OVN instead. */
const CLOUD_SERVICES: ReadonlyArray<[string, string]> = [
    ["169.254.169.254", "the instance metadata service (AWS, GCP, Azure, OpenStack)"],
    ["169.254.169.253", "the Amazon VPC DNS resolver"],
    ["169.254.169.123", "the Amazon Time Sync (NTP) service"],
];
/**
 * The widest range upstream gives ovnkube: the chart's v4MasqueradeSubnet, 169.254.0.0/17
 * (helm values-single-node-zone.yaml:41); its binary's own default is 169.254.169.0/29
 * (go-controller/pkg/config/config.go:190). ovnkube uses only the first 5 addresses (capacity.ts).
 */
export const WIDEST_MASQUERADE_PREFIX = 17;

/** Relations: the masquerade range is link-local, no wider than upstream's, and clear of the clouds' services. */
export function masqueradeProblems(masquerade: Cidr4 | undefined, add: Add): void {
    if (!masquerade) return;
    if (!contains(LINK_LOCAL, masquerade))
        return add(
            PATH,
            `${masquerade.text} is not link-local: every node would route it into OVN and hosts outside could reach its addresses; use a range inside 169.254.0.0/16, such as the default 169.254.0.0/17`,
        );
    if (masquerade.prefix < WIDEST_MASQUERADE_PREFIX)
        add(
            PATH,
            `${masquerade.text} is wider than upstream's /${WIDEST_MASQUERADE_PREFIX} (ovnkube uses 5 addresses of it, and every node routes all of it into OVN); use /${WIDEST_MASQUERADE_PREFIX} to /29, such as 169.254.0.0/17`,
        );
    for (const [ip, what] of CLOUD_SERVICES)
        if (containsIp(masquerade, ip))
            add(
                PATH,
                `${masquerade.text} covers ${ip}, ${what}: nodes would send it into OVN; use a range that leaves 169.254.169.0/24 out, such as 169.254.0.0/17`,
            );
}
