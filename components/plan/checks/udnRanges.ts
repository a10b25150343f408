// What user-defined networks take from the address plan (docs/facts/udn.md §5): every primary UDN
// has its own join subnet, by default 100.65.0.0/16 and fd99::/64 (types/const.go:164-165 at
// v1.3.0), which ovnkube refuses to overlap the cluster's ranges; and two masquerade addresses per
// network, at offsets 10+2n-1 and 10+2n for up to 4096 networks (generator/udn/masquerade_ips.go).
import { overlaps, parseNetwork, size, type Cidr } from "../../values";

type Add = (path: string, message: string) => void;

const UDN_JOIN_SUBNETS: readonly Cidr[] = ["100.65.0.0/16", "fd99::/64"].map(parseNetwork);
/** ovnkube's limit of networks (networkmanager/api.go:28). */
const MAX_NETWORKS = 4096;
/** The default network's five masquerade addresses sit below offset 10; network n takes 10+2n-1 and 10+2n. */
const MASQUERADE_FOR_ALL_NETWORKS = 10 + 2 * MAX_NETWORKS;

/** Relations (ovnkube.features.networkSegmentation): the planned ranges leave UDNs' join subnet free; the masquerade range holds every network's addresses. */
export function udnRangeProblems(named: ReadonlyArray<[string, Cidr | undefined]>, add: Add): void {
    for (const [path, range] of named) {
        if (!range) continue;
        const join = UDN_JOIN_SUBNETS.find((j) => overlaps(j, range));
        if (join)
            add(
                path,
                `${range.text} overlaps ${join.text}, the join subnet every user-defined network takes by default (ovnkube refuses a UDN whose join subnet overlaps the cluster's ranges); choose a range that leaves ${join.text} free`,
            );
        if (path.startsWith("masqueradeSubnet") && size(range.prefix, range.bits) - 2 < MASQUERADE_FOR_ALL_NETWORKS)
            add(
                path,
                `${range.text} holds too few addresses for user-defined networks: ovnkube gives each of up to ${MAX_NETWORKS} networks two masquerade addresses past the first 10 (${MASQUERADE_FOR_ALL_NETWORKS} in all); use /${range.bits - Math.ceil(Math.log2(MASQUERADE_FOR_ALL_NETWORKS + 2))} or wider, such as the default`,
            );
    }
}
