// The NodeSwitch kind (master-init/minion-init per node): the node's logical switch, its router
// port rtos-<node> on the cluster router with the peer stor-<node>, the management port
// k8s-<node>, and the cluster load balancers attached to the switch.
// Input `network`: the NB part of the model's NodeNetworkModel.
import type { NodeNetworkModel, OvnkubeNodeModel } from "../../model/types";
import { ifAddressAt, routerPortMac } from "../../model/ifAddress";
import { familyOf } from "../../values";
import { rowSpec, type RowRef, type RowSpec } from "../core/rows";
import { nodeGroup } from "../core/tags";
import { clusterRow } from "./clusterRouter";
import { defineKind, expectedCells, setCell, type ExpectedRows } from "./common";
import { address, network, object, ovnName, text, type ValueOf } from "./fields";

export const NODE_SWITCH_INPUTS = {
    network: object({
        node: text("nodeName", { replace: true }),
        switchName: ovnName(),
        subnet: network(),
        routerPort: ovnName(),
        routerPeerPort: ovnName(),
        router: address({ within: "subnet" }),
        mgmtPort: ovnName(),
        mgmt: address({ within: "subnet" }),
        clusterRouter: ovnName(),
    }),
};
export type NodeSwitchNb = ValueOf<typeof NODE_SWITCH_INPUTS>["network"];

export const NODE_ROWS = {
    switch: "switch",
    routerPort: "router-port",
    switchRouterPort: "switch-router-port",
    mgmtPort: "mgmt-port",
} as const;

export function nodeSwitchRows(owner: string, n: NodeSwitchNb): RowSpec[] {
    const group = nodeGroup(n.node);
    const ownSwitch: RowRef = { group, key: NODE_ROWS.switch, table: "Logical_Switch" };
    const routerMac = n.router.mac.toLowerCase();
    return [
        rowSpec(owner, group, NODE_ROWS.switch, "Logical_Switch", {
            columns: { name: n.switchName },
            maps: { other_config: { subnet: n.subnet }, external_ids: { gateway_ip: n.router.cidr } },
            refs: { load_balancer: [clusterRow(n.clusterRouter, "lbTcp"), clusterRow(n.clusterRouter, "lbUdp")] },
        }),
        rowSpec(owner, group, NODE_ROWS.routerPort, "Logical_Router_Port", {
            columns: { name: n.routerPort, mac: routerMac, networks: [n.router.cidr] },
            parent: clusterRow(n.clusterRouter, "router"),
        }),
        rowSpec(owner, group, NODE_ROWS.switchRouterPort, "Logical_Switch_Port", {
            columns: { name: n.routerPeerPort, type: "router", addresses: [routerMac] },
            maps: { options: { "router-port": n.routerPort } },
            parent: ownSwitch,
        }),
        rowSpec(owner, group, NODE_ROWS.mgmtPort, "Logical_Switch_Port", {
            columns: { name: n.mgmtPort, type: "", addresses: [`${n.mgmt.mac.toLowerCase()} ${n.mgmt.ip}`] },
            parent: ownSwitch,
        }),
    ];
}

/**
 * ovnkube mode: ovnkube builds the node's switch from the node-subnets annotation, subnet and router
 * port as planned: with `node`, in each of its families (an IPv6 subnet is the switch's
 * `ipv6_prefix`, base_network_controller.go:584-592 at v1.3.0).
 */
function ovnkubeNodeSwitchRows(network: NodeNetworkModel, node?: Pick<OvnkubeNodeModel, "subnets">): ExpectedRows {
    const rows = expectedCells(nodeSwitchRows("", network), {
        [NODE_ROWS.switch]: ["other_config:subnet"],
        [NODE_ROWS.routerPort]: ["networks", "mac"],
    });
    if (!node || (node.subnets.length === 1 && familyOf(node.subnets[0]) === "ipv4")) return rows;
    const routers = node.subnets.map((s) => ifAddressAt(s, 1));
    const v4 = node.subnets.find((s) => familyOf(s) === "ipv4");
    const v6 = node.subnets.find((s) => familyOf(s) === "ipv6");
    return {
        [`Logical_Switch ${network.switchName}`]: {
            ...(v4 ? { "other_config:subnet": v4 } : {}),
            ...(v6 ? { "other_config:ipv6_prefix": v6.split("/")[0] } : {}),
        },
        [`Logical_Router_Port ${network.routerPort}`]: { networks: setCell(routers.map((r) => r.cidr)), mac: routerPortMac(routers) },
    };
}

export const nodeSwitchKind = defineKind({
    type: "NodeSwitch",
    inputs: NODE_SWITCH_INPUTS,
    tables: ["Logical_Switch", "Logical_Router_Port", "Logical_Switch_Port"],
    refine: (c) => {
        const [r, m] = [c.present("network.router.ip"), c.present("network.mgmt.ip")];
        if (r !== undefined && r === m) c.fail("network.mgmt.ip", `must differ from network.router.ip (${String(r)})`);
    },
    group: (inputs) => nodeGroup(inputs.network.node),
    rows: (owner, inputs) => nodeSwitchRows(owner, inputs.network),
    instances: (model) => model.nodeNetworks.map((n) => ({ name: n.node, inputs: { network: n }, placeholders: {} })),
    ovnkube: ovnkubeNodeSwitchRows,
});
