// Every range holds what the plan allocates in it: node subnets in the cluster subnet (around the
// pinned ones), gateway routers in the join subnet, node-ids in the transit subnet, ovnkube's
// fixed addresses in the masquerade subnet, in each address family. Otherwise the plan runs out
// half-way, or ovnkube gives a node an address outside its network.
import { type Cidr, overlaps, parseNetwork, size } from "../../values";
import { MAX_OVNKUBE_NODE_ID, MIN_OVNKUBE_NODE_ID } from "../../model/addressPlan";
import { isK8sNode } from "../../model/nodes";
import { listOf } from "../../config/families";
import type { StackConfigInput } from "../../config/types";
import type { FamilyNets } from "./families";

type Add = (path: string, message: string) => void;

/** ovnkube takes masquerade addresses at offsets 1 to 5 (config/utils.go AllocateV4/V6MasqueradeIPs). */
const MASQUERADE_ADDRESSES = 5;

export interface CapacityContext extends FamilyNets {
    /** ovnkube mode: every Kubernetes node has a gateway router and a node-id. */
    ovnkubeMode: boolean;
    mode: string;
}

/** Gateway router places in the join subnet: offsets 2 … size-2, and in ovnkube mode node-ids up to MAX_OVNKUBE_NODE_ID. */
export const joinPlaces = (join: Cidr, ovnkubeMode: boolean): number =>
    Math.min(size(join.prefix, join.bits) - 2, ovnkubeMode ? MAX_OVNKUBE_NODE_ID + 1 : Infinity) - MIN_OVNKUBE_NODE_ID;

/** Cluster subnet slots of the node subnet length not taken by a pinned subnet (pinned ones never overlap: checked apart). */
function freeSlots(cluster: Cidr, length: number, pinned: Cidr[]): number {
    const taken = new Set<bigint>();
    let wide = 0;
    for (const p of pinned.filter((p) => overlaps(p, cluster))) {
        if (p.prefix >= length) taken.add((p.base - cluster.base) >> BigInt(cluster.bits - length));
        else wide += 2 ** (length - p.prefix);
    }
    return 2 ** (length - cluster.prefix) - taken.size - wide;
}

/** Relation: each range of one family has a place for everything the plan puts in it. */
export function capacityProblems(cfg: StackConfigInput, c: CapacityContext, add: Add): void {
    const k8sNodes = cfg.nodes.filter(isK8sNode);
    const length = c.hostSubnetLength;
    if (c.cluster && length > c.cluster.prefix) {
        const pinned = k8sNodes.flatMap((n) =>
            listOf(n.subnet)
                .slice(c.k, c.k + 1)
                .flatMap((s) => safeNetwork(s) ?? []),
        );
        const unpinned = k8sNodes.length - pinned.length;
        const free = freeSlots(c.cluster, length, pinned);
        if (unpinned > free)
            add(
                "nodes",
                `${k8sNodes.length} nodes do not fit: clusterSubnet ${c.cluster.text} holds ${free} /${length} subnets besides the pinned ones, for ${unpinned} unpinned nodes`,
            );
    }
    if (c.join) {
        const places = joinPlaces(c.join, c.ovnkubeMode);
        const wanted = c.ovnkubeMode ? k8sNodes.length : cfg.nodes.filter((n) => n.roles.includes("gateway")).length;
        if (wanted > places)
            add(
                c.path("joinSubnet"),
                c.ovnkubeMode
                    ? `${c.join.text} gives ovnkube ${places} gateway router addresses (node-ids ${MIN_OVNKUBE_NODE_ID}…), fewer than the ${wanted} nodes ${c.mode}`
                    : `${c.join.text} holds ${places} gateway router addresses besides the cluster router's, fewer than the ${wanted} gateways`,
            );
        // A node's transit address is the transit base + its node-id, which goes as high as the join subnet lets it.
        const highestId = places + MIN_OVNKUBE_NODE_ID - 1;
        if (c.transit && size(c.transit.prefix, c.transit.bits) - 2 < highestId)
            add(
                c.path("transitSubnet"),
                `${c.transit.text} holds node-ids up to ${size(c.transit.prefix, c.transit.bits) - 2}, but joinSubnet ${c.join.text} lets ovnkube give node-ids up to ${highestId}, whose transit address would fall outside it; use a transit subnet of /${c.transit.bits - Math.ceil(Math.log2(highestId + 2))} or shorter`,
            );
    }
    if (c.masquerade && size(c.masquerade.prefix, c.masquerade.bits) - 2 < MASQUERADE_ADDRESSES)
        add(
            c.path("masqueradeSubnet"),
            `${c.masquerade.text} is too small: ovnkube takes its first ${MASQUERADE_ADDRESSES} addresses; use /${c.masquerade.bits - 3} or shorter`,
        );
}

function safeNetwork(text: string): Cidr | undefined {
    try {
        return parseNetwork(text);
    } catch {
        return undefined; // reported where the field is checked
    }
}
