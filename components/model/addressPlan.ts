// The address plan: node subnets from the cluster subnet and join addresses from the join subnet.
//
// Stability without state: an unpinned node's place is a hash of its NAME (not of its position),
// so adding or removing another node never moves it. Two names can hash to the same place; then
// the node listed first keeps it and the later one takes the next free place, and is reported as
// displaced so the operator can pin it (`nodes[i].subnet`). Each address family is planned so; a
// node's join offset (ovnkube's node-id) is one for all families. Appending nodes therefore never moves
// an existing one, and the plan is a pure function of the config.
import { createHash } from "crypto";
import { addressAt, type Cidr, type IpFamily, overlaps, parseNetwork, size, subnetAt } from "../values";

/** One family's ranges: the cluster subnet carved into node subnets, and the join subnet. */
export interface FamilyRanges {
    clusterSubnet: string;
    hostSubnetLength: number;
    joinSubnet: string;
}

export interface PlanRequest {
    /** One entry per address family, the primary first (a dual-stack cluster has two). */
    families: FamilyRanges[];
    /** Kubernetes nodes in config order, with optional pinned subnets, one per family (in the families' order). */
    nodes: Array<{ name: string; subnets?: readonly string[] }>;
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

/** The plan of one address family. */
export interface FamilyPlan {
    family: IpFamily;
    /** Node name → node subnet. */
    subnets: Record<string, string>;
    /** The cluster router's join address (first address of the join subnet). */
    clusterRouterJoinIp: string;
    /** Gateway node name → its gateway router's join address. */
    gatewayJoinIps: Record<string, string>;
    joinPrefix: number;
}

/** The plan: the primary family's at the top (all Pulumi mode has), and every family's in `families`. */
export interface AddressPlan extends FamilyPlan {
    families: FamilyPlan[];
    /**
     * Gateway node name → its join offset, shared by every family: ovnkube gives a node one node-id
     * and derives each family's join and transit address from it.
     */
    joinOffsets: Record<string, number>;
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

/** A family's node subnets: pins kept, the others placed by name. */
function planSubnets(
    r: FamilyRanges,
    nodes: PlanRequest["nodes"],
    index: number,
): { subnets: Record<string, string>; displaced: Displaced[] } {
    const cluster = parseNetwork(r.clusterSubnet);
    const pinOf = (n: PlanRequest["nodes"][number]) => n.subnets?.[index];
    const slotCount = r.hostSubnetLength < cluster.prefix ? 0 : size(cluster.prefix, cluster.bits) / size(r.hostSubnetLength, cluster.bits);
    const pinned: Cidr[] = nodes.flatMap((n) => (pinOf(n) ? [parseNetwork(pinOf(n)!)] : []));
    const subnetOf = (i: number) => subnetAt(cluster, r.hostSubnetLength, i);

    const subnets: Record<string, string> = {};
    for (const n of nodes) if (pinOf(n)) subnets[n.name] = pinOf(n)!;
    const unpinned = nodes.filter((n) => !pinOf(n)).map((n) => n.name);
    const nodeClaim = claim(
        unpinned,
        slotCount,
        (i) => !pinned.some((p) => overlaps(p, subnetOf(i))),
        (i) => subnetOf(i).text,
        "subnet",
    );
    for (const name of unpinned) subnets[name] = subnetOf(nodeClaim.places[name]).text;
    return { subnets, displaced: nodeClaim.displaced };
}

export function planAddresses(req: PlanRequest): AddressPlan {
    const joins = req.families.map((r) => parseNetwork(r.joinSubnet));
    // Join subnet: address 1 is the cluster router's; gateways take 2 … size-2 (never the broadcast),
    // at one offset in every family.
    const room = Math.min(...joins.map((j) => size(j.prefix, j.bits) - 2));
    const gatewaySlots = Math.min(room, (req.maxJoinOffset ?? Infinity) + 1) - 2;
    const joinClaim = claim(
        req.gateways,
        gatewaySlots,
        () => true,
        (i) => addressAt(joins[0], i + 2),
        "join",
    );
    const joinOffsets = Object.fromEntries(req.gateways.map((name) => [name, joinClaim.places[name] + 2]));
    const displaced: Displaced[] = [];
    const families = req.families.map((r, index): FamilyPlan => {
        const { subnets, displaced: moved } = planSubnets(r, req.nodes, index);
        displaced.push(...moved);
        const join = joins[index];
        return {
            family: join.family,
            subnets,
            clusterRouterJoinIp: addressAt(join, 1),
            gatewayJoinIps: Object.fromEntries(req.gateways.map((name) => [name, addressAt(join, joinOffsets[name])])),
            joinPrefix: join.prefix,
        };
    });
    return { ...families[0], families, joinOffsets, displaced: [...displaced, ...joinClaim.displaced] };
}
