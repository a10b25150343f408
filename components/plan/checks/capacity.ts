// Every range holds what the plan allocates in it: node subnets in the cluster subnet (around the
// pinned ones), gateway routers in the join subnet, node-ids in the transit subnet, ovnkube's
// fixed addresses in the masquerade subnet. Otherwise the plan runs out half-way, or ovnkube
// gives a node an address outside its network.
import { Cidr4, overlaps, parseNetwork, size } from "../../values";
import { MAX_OVNKUBE_NODE_ID, MIN_OVNKUBE_NODE_ID } from "../../model/addressPlan";
import { isK8sNode } from "../../model/nodes";
import type { StackConfigInput } from "../../config/types";

type Add = (path: string, message: string) => void;

/** ovnkube takes masquerade addresses at offsets 1 to 5 (config/utils.go AllocateV4MasqueradeIPs). */
const MASQUERADE_ADDRESSES = 5;

export interface CapacityContext {
    cluster?: Cidr4;
    join?: Cidr4;
    transit?: Cidr4;
    masquerade?: Cidr4;
    /** ovnkube mode: every Kubernetes node has a gateway router and a node-id. */
    ovnkubeMode: boolean;
    mode: string;
}

/** Gateway router places in the join subnet: offsets 2 … size-2, and in ovnkube mode node-ids up to MAX_OVNKUBE_NODE_ID. */
export const joinPlaces = (join: Cidr4, ovnkubeMode: boolean): number =>
    Math.min(size(join.prefix) - 2, ovnkubeMode ? MAX_OVNKUBE_NODE_ID + 1 : Infinity) - MIN_OVNKUBE_NODE_ID;

/** Cluster subnet slots of the node subnet length not taken by a pinned subnet (pinned ones never overlap: checked apart). */
function freeSlots(cluster: Cidr4, length: number, pinned: Cidr4[]): number {
    const taken = new Set<number>();
    let wide = 0;
    for (const p of pinned.filter((p) => overlaps(p, cluster))) {
        if (p.prefix >= length) taken.add(Math.floor((p.base - cluster.base) / size(length)));
        else wide += size(p.prefix) / size(length);
    }
    return size(cluster.prefix) / size(length) - taken.size - wide;
}

/** Relation: each range has a place for everything the plan puts in it. */
export function capacityProblems(cfg: StackConfigInput & { hostSubnetLength: number }, c: CapacityContext, add: Add): void {
    const k8sNodes = cfg.nodes.filter(isK8sNode);
    if (c.cluster && cfg.hostSubnetLength > c.cluster.prefix) {
        const pinned = k8sNodes.flatMap((n) => (n.subnet ? [safeNetwork(n.subnet)] : [])).filter((p): p is Cidr4 => p !== undefined);
        const unpinned = k8sNodes.length - pinned.length;
        const free = freeSlots(c.cluster, cfg.hostSubnetLength, pinned);
        if (unpinned > free)
            add(
                "nodes",
                `${k8sNodes.length} nodes do not fit: clusterSubnet ${c.cluster.text} holds ${free} /${cfg.hostSubnetLength} subnets besides the pinned ones, for ${unpinned} unpinned nodes`,
            );
    }
    if (c.join) {
        const places = joinPlaces(c.join, c.ovnkubeMode);
        const wanted = c.ovnkubeMode ? k8sNodes.length : cfg.nodes.filter((n) => n.roles.includes("gateway")).length;
        if (wanted > places)
            add(
                "joinSubnet",
                c.ovnkubeMode
                    ? `${c.join.text} gives ovnkube ${places} gateway router addresses (node-ids ${MIN_OVNKUBE_NODE_ID}…), fewer than the ${wanted} nodes ${c.mode}`
                    : `${c.join.text} holds ${places} gateway router addresses besides the cluster router's, fewer than the ${wanted} gateways`,
            );
        // A node's transit address is the transit base + its node-id, which goes as high as the join subnet lets it.
        const highestId = places + MIN_OVNKUBE_NODE_ID - 1;
        if (c.transit && size(c.transit.prefix) - 2 < highestId)
            add(
                "transitSubnet",
                `${c.transit.text} holds node-ids up to ${size(c.transit.prefix) - 2}, but joinSubnet ${c.join.text} lets ovnkube give node-ids up to ${highestId}, whose transit address would fall outside it; use a transit subnet of /${32 - Math.ceil(Math.log2(highestId + 2))} or shorter`,
            );
    }
    if (c.masquerade && size(c.masquerade.prefix) - 2 < MASQUERADE_ADDRESSES)
        add(
            "masqueradeSubnet",
            `${c.masquerade.text} is too small: ovnkube takes its first ${MASQUERADE_ADDRESSES} addresses; use /29 or shorter`,
        );
}

export function safeNetwork(text: string): Cidr4 | undefined {
    try {
        return parseNetwork(text);
    } catch {
        return undefined; // reported where the field is checked
    }
}
