// Address families of a cluster. Every range setting takes one CIDR (single stack) or one per
// family joined by a comma (dual stack, the primary first), as the chart writes `podNetwork` and
// `serviceNetwork` (`10.244.0.0/16/24,fd00:10:244::/48/64` less the lengths). The cluster subnet
// decides the families; every other range follows it in the same order. Pure: no I/O.
import { familyOf, type IpFamily } from "../values";
import type { ClusterSettings } from "./types";

/** The range settings that take one CIDR per family. */
export const RANGE_KEYS = ["clusterSubnet", "serviceSubnet", "joinSubnet", "transitSubnet", "masqueradeSubnet"] as const;
export type RangeKey = (typeof RANGE_KEYS)[number];

/**
 * Upstream's defaults per family (go-controller/pkg/config/config.go:188-191,248-249, the chart's
 * values-single-node-zone.yaml:38-47; docs/facts/ovnkube-1.3.md §14). IPv6 node subnets are /64
 * only (config/utils.go:103), so hostSubnetLength is the IPv4 length.
 */
export const FAMILY_DEFAULTS = {
    hostSubnetLength: { ipv4: 24, ipv6: 64 },
    joinSubnet: { ipv4: "100.64.0.0/16", ipv6: "fd98::/64" },
    transitSubnet: { ipv4: "100.88.0.0/16", ipv6: "fd97::/64" },
    masqueradeSubnet: { ipv4: "169.254.0.0/17", ipv6: "fd69::/112" },
} as const satisfies Record<string, Record<IpFamily, unknown>>;

/** Kubernetes' spelling, for messages: IPv4, IPv6. */
export const familyName = (f: IpFamily): string => (f === "ipv4" ? "IPv4" : "IPv6");

/** A per-family setting's entries: `a,b` is two, a missing setting none. */
export const listOf = (v: string | undefined): string[] => (v === undefined ? [] : v.split(","));

/** The cluster's families in the order of clusterSubnet (entries of no family are left out). */
export function clusterFamilies(cfg: Pick<ClusterSettings, "clusterSubnet">): IpFamily[] {
    return listOf(cfg.clusterSubnet).flatMap((c) => familyOf(c) ?? []);
}

/** A range's CIDR per family: the given ones, else upstream's defaults (only the keys that have them). */
export function rangesOf(cfg: ClusterSettings, key: RangeKey, families: readonly IpFamily[]): string[] {
    const given = listOf(cfg[key]);
    if (given.length > 0) return given;
    const defaults: Partial<Record<RangeKey, Record<IpFamily, string>>> = FAMILY_DEFAULTS;
    return defaults[key] ? families.map((f) => defaults[key]![f]) : [];
}

/** The node subnet length per family: hostSubnetLength for IPv4, upstream's only one for IPv6. */
export function hostSubnetLengthsOf(hostSubnetLength: number | undefined, families: readonly IpFamily[]): number[] {
    return families.map((f) =>
        f === "ipv4" ? (hostSubnetLength ?? FAMILY_DEFAULTS.hostSubnetLength.ipv4) : FAMILY_DEFAULTS.hostSubnetLength.ipv6,
    );
}
