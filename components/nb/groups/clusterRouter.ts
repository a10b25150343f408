// The cluster-wide rows (master-init): the distributed cluster router, the join switch with the
// router's port pair, and the cluster TCP/UDP load balancers that every node switch carries.
import type { ClusterRouterModel } from "../../model/types";
import { rowSpec, type RowRef, type RowSpec } from "../rows";
import type { NbTable } from "../tables";
import { clusterGroup } from "../tags";

/** The part of ClusterRouterModel that NB needs (host-side fields stay out of the inputs). */
export interface ClusterRouterNb {
    name: string;
    joinSwitch: string;
    joinPort: string;
    joinPeerPort: string;
    joinAddress: { ip: string; cidr: string; mac: string };
}

export function pickClusterRouter(m: ClusterRouterNb | ClusterRouterModel): ClusterRouterNb {
    const { ip, cidr, mac } = m.joinAddress;
    return { name: m.name, joinSwitch: m.joinSwitch, joinPort: m.joinPort, joinPeerPort: m.joinPeerPort, joinAddress: { ip, cidr, mac } };
}

/** Rows of the cluster group by stable key; node and gateway groups refer to some of them. */
export const CLUSTER_ROWS = {
    router: { key: "router", table: "Logical_Router" },
    joinSwitch: { key: "join-switch", table: "Logical_Switch" },
    routerJoinPort: { key: "router-join-port", table: "Logical_Router_Port" },
    joinRouterPort: { key: "join-router-port", table: "Logical_Switch_Port" },
    lbTcp: { key: "lb-tcp", table: "Load_Balancer" },
    lbUdp: { key: "lb-udp", table: "Load_Balancer" },
} as const satisfies Record<string, { key: string; table: NbTable }>;

/** A row of the cluster group, as seen from another group. */
export function clusterRow(router: string, row: keyof typeof CLUSTER_ROWS): RowRef {
    return { group: clusterGroup(router), ...CLUSTER_ROWS[row] };
}

export function clusterRouterRows(owner: string, r: ClusterRouterNb): RowSpec[] {
    const group = clusterGroup(r.name);
    const own = (row: keyof typeof CLUSTER_ROWS) => clusterRow(r.name, row);
    const row = (name: keyof typeof CLUSTER_ROWS, parts: Parameters<typeof rowSpec>[4]) =>
        rowSpec(owner, group, CLUSTER_ROWS[name].key, CLUSTER_ROWS[name].table, parts);
    const mac = r.joinAddress.mac.toLowerCase();
    return [
        row("router", { columns: { name: r.name }, maps: { external_ids: { "k8s-cluster-router": "yes" } } }),
        row("joinSwitch", { columns: { name: r.joinSwitch } }),
        row("routerJoinPort", {
            columns: { name: r.joinPort, mac, networks: [r.joinAddress.cidr] },
            maps: { external_ids: { connect_to_join: "yes" } },
            parent: own("router"),
        }),
        row("joinRouterPort", {
            columns: { name: r.joinPeerPort, type: "router", addresses: [mac] },
            maps: { options: { "router-port": r.joinPort } },
            parent: own("joinSwitch"),
        }),
        // Unnamed, as ovn-kubernetes made them: ovnkube finds them by these external_ids. Their
        // VIPs belong to ovnkube (services), so `vips` is not managed here.
        row("lbTcp", { columns: { name: "", protocol: ["tcp"] }, maps: { external_ids: { "k8s-cluster-lb-tcp": "yes" } } }),
        row("lbUdp", { columns: { name: "", protocol: ["udp"] }, maps: { external_ids: { "k8s-cluster-lb-udp": "yes" } } }),
    ];
}
