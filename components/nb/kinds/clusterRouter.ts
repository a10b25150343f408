// The ClusterRouter kind (master-init): the distributed cluster router, the join switch with the
// router's port pair, and the cluster TCP/UDP load balancers that every node switch carries.
// Input `router`: the NB part of the model's ClusterRouterModel.
import type { ClusterModel, OvnkubeNodeModel } from "../../model/types";
import * as names from "../../model/names";
import { routerPortMac } from "../../model/ifAddress";
import { rowSpec, type RowRef, type RowSpec } from "../core/rows";
import type { NbTable } from "../core/tables";
import { clusterGroup } from "../core/tags";
import { defineKind, expectedCells, setCell, type ExpectedRows } from "./common";
import { address, object, ovnName, type ValueOf } from "./fields";

export const CLUSTER_ROUTER_INPUTS = {
    router: object({ name: ovnName(), joinSwitch: ovnName(), joinPort: ovnName(), joinPeerPort: ovnName(), joinAddress: address() }),
};
export type ClusterRouterNb = ValueOf<typeof CLUSTER_ROUTER_INPUTS>["router"];

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
    const mac = r.joinAddress.mac.toLowerCase();
    return [
        rowSpec(owner, group, CLUSTER_ROWS.router.key, "Logical_Router", {
            columns: { name: r.name },
            maps: { external_ids: { "k8s-cluster-router": "yes" } },
        }),
        rowSpec(owner, group, CLUSTER_ROWS.joinSwitch.key, "Logical_Switch", { columns: { name: r.joinSwitch } }),
        rowSpec(owner, group, CLUSTER_ROWS.routerJoinPort.key, "Logical_Router_Port", {
            columns: { name: r.joinPort, mac, networks: [r.joinAddress.cidr] },
            maps: { external_ids: { connect_to_join: "yes" } },
            parent: own("router"),
        }),
        rowSpec(owner, group, CLUSTER_ROWS.joinRouterPort.key, "Logical_Switch_Port", {
            columns: { name: r.joinPeerPort, type: "router", addresses: [mac] },
            maps: { options: { "router-port": r.joinPort } },
            parent: own("joinSwitch"),
        }),
        // Unnamed, as ovn-kubernetes made them: ovnkube finds them by these external_ids. Their
        // VIPs belong to ovnkube (services), so `vips` is not managed here.
        rowSpec(owner, group, CLUSTER_ROWS.lbTcp.key, "Load_Balancer", {
            columns: { name: "", protocol: ["tcp"] },
            maps: { external_ids: { "k8s-cluster-lb-tcp": "yes" } },
        }),
        rowSpec(owner, group, CLUSTER_ROWS.lbUdp.key, "Load_Balancer", {
            columns: { name: "", protocol: ["udp"] },
            maps: { external_ids: { "k8s-cluster-lb-udp": "yes" } },
        }),
    ];
}

/**
 * ovnkube mode: ovnkube-cluster-manager's cluster router and join switch, at the planned join
 * address; with interconnect, the node's zone end of the transit switch, at the cluster
 * manager's address for the node-id.
 */
function ovnkubeClusterRows(model: ClusterModel, node?: OvnkubeNodeModel): ExpectedRows {
    const { router, joinSwitch, routerJoinPort } = CLUSTER_ROWS;
    const rows = expectedCells(clusterRouterRows("", model.clusterRouter), {
        [router.key]: ["name"],
        [joinSwitch.key]: ["name"],
        [routerJoinPort.key]: ["networks", "mac"],
    });
    // Dual stack: the join port holds an address of each family.
    const join = model.kube.clusterRouterJoin;
    const dual =
        join.length > 1
            ? {
                  [`Logical_Router_Port ${model.clusterRouter.joinPort}`]: {
                      networks: setCell(join.map((a) => a.cidr)),
                      mac: routerPortMac(join),
                  },
              }
            : {};
    if (!node?.transit) return { ...rows, ...dual };
    return {
        ...rows,
        ...dual,
        [`Logical_Switch ${names.TRANSIT_SWITCH}`]: { name: names.TRANSIT_SWITCH },
        [`Logical_Router_Port ${names.routerToTransit(node.name)}`]: {
            networks: setCell(node.transit.map((t) => t.cidr)),
            mac: routerPortMac(node.transit),
        },
    };
}

export const clusterRouterKind = defineKind({
    type: "ClusterRouter",
    inputs: CLUSTER_ROUTER_INPUTS,
    tables: ["Logical_Router", "Logical_Switch", "Logical_Router_Port", "Logical_Switch_Port", "Load_Balancer"],
    group: (inputs) => clusterGroup(inputs.router.name),
    rows: (owner, inputs) => clusterRouterRows(owner, inputs.router),
    instances: (model) => [{ name: model.clusterRouter.name, inputs: { router: model.clusterRouter }, placeholders: {} }],
    ovnkube: ovnkubeClusterRows,
});
