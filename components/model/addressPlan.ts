// The address plan: node subnets from the cluster subnet and join addresses from the join subnet.
//
// Stability without state: an unpinned node's place is a hash of its NAME (not of its position),
// so adding or removing another node never moves it. Two names can hash to the same place; then
// the node listed first keeps it and the later one takes the next free place, and is reported as
// displaced so the operator can pin it (`nodes[i].subnet`). Appending nodes therefore never moves
// an existing one, and the plan is a pure function of the config.
import { createHash } from "crypto";
import { addressAt, Cidr4, overlaps, parseNetwork, size, subnetAt } from "../values";

export interface PlanRequest {
    clusterSubnet: string;
    hostSubnetLength: number;
    joinSubnet: string;
    /** Kubernetes nodes in config order, with an optional pinned subnet. */
    nodes: Array<{ name: string; subnet?: string }>;
    /** Gateway node names in config order. */
    gateways: string[];
    /**
     * Highest join offset a gateway may take. ovnkube derives a gateway router's join address from
     * the node-id (join base + id) and allocates ids up to MAX_OVNKUBE_NODE_ID only, so in ovnkube
     * mode the plan stays within that range.
     */
    maxJoinOffset?: number;
}

/** ovnkube reserves node-ids 0 and 1 and allocates up to 5000 (clustermanager/zone_cluster_controller.go). */
export const MIN_OVNKUBE_NODE_ID = 2;
export const MAX_OVNKUBE_NODE_ID = 5000;

export interface Displaced {
    kind: "subnet" | "join";
    node: string;
    /** The place its name hashes to, taken by `by`. */
    wanted: string;
    by: string;
    got: string;
}

export interface AddressPlan {
    /** Node name → node subnet. */
    subnets: Record<string, string>;
    /** The cluster router's join address (first address of the join subnet). */
    clusterRouterJoinIp: string;
    /** Gateway node name → its gateway router's join address. */
    gatewayJoinIps: Record<string, string>;
    joinPrefix: number;
    displaced: Displaced[];
}

/** A well-kept hash (SHA-256) reduced to a place index: uniform and identical on every machine. */
export function homeSlot(name: string, slots: number): number {
    return createHash("sha256").update(name).digest().readUInt32BE(0) % slots;
}

/** Claims places in order for each name; `free(i)` says whether place i may be used at all. */
function claim(
    names: string[],
    slots: number,
    free: (i: number) => boolean,
    label: (i: number) => string,
    kind: Displaced["kind"],
): { places: Record<string, number>; displaced: Displaced[] } {
    const owner = new Map<number, string>();
    const places: Record<string, number> = {};
    const displaced: Displaced[] = [];
    for (const name of names) {
        const home = homeSlot(name, slots);
        let i = home;
        for (let step = 0; step < slots && (owner.has(i) || !free(i)); step++) i = (i + 1) % slots;
        if (owner.has(i) || !free(i))
            throw new Error(`no free ${kind === "subnet" ? "node subnet" : "join address"} left for node "${name}"`);
        owner.set(i, name);
        places[name] = i;
        if (i !== home && owner.has(home)) displaced.push({ kind, node: name, wanted: label(home), by: owner.get(home)!, got: label(i) });
    }
    return { places, displaced };
}

export function planAddresses(req: PlanRequest): AddressPlan {
    const cluster = parseNetwork(req.clusterSubnet);
    const slotCount = size(req.hostSubnetLength) === 0 ? 0 : size(cluster.prefix) / size(req.hostSubnetLength);
    const pinned: Cidr4[] = req.nodes.filter((n) => n.subnet).map((n) => parseNetwork(n.subnet!));
    const subnetOf = (i: number) => subnetAt(cluster, req.hostSubnetLength, i);

    const subnets: Record<string, string> = {};
    for (const n of req.nodes) if (n.subnet) subnets[n.name] = n.subnet;
    const unpinned = req.nodes.filter((n) => !n.subnet).map((n) => n.name);
    const nodeClaim = claim(
        unpinned,
        slotCount,
        (i) => !pinned.some((p) => overlaps(p, subnetOf(i))),
        (i) => subnetOf(i).text,
        "subnet",
    );
    for (const name of unpinned) subnets[name] = subnetOf(nodeClaim.places[name]).text;

    // Join subnet: address 1 is the cluster router's; gateways take 2 … size-2 (never the broadcast).
    const join = parseNetwork(req.joinSubnet);
    const gatewaySlots = Math.min(size(join.prefix) - 2, (req.maxJoinOffset ?? Infinity) + 1) - 2;
    const joinClaim = claim(
        req.gateways,
        gatewaySlots,
        () => true,
        (i) => addressAt(join, i + 2),
        "join",
    );
    const gatewayJoinIps: Record<string, string> = {};
    for (const name of req.gateways) gatewayJoinIps[name] = addressAt(join, joinClaim.places[name] + 2);

    return {
        subnets,
        clusterRouterJoinIp: addressAt(join, 1),
        gatewayJoinIps,
        joinPrefix: join.prefix,
        displaced: [...nodeClaim.displaced, ...joinClaim.displaced],
    };
}
