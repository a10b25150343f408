// One node's rows (master-init/minion-init per node): the node's logical switch, its router port
// rtos-<node> on the cluster router with the peer stor-<node>, the management port k8s-<node>,
// and the cluster load balancers attached to the switch.
import type { NodeNetworkModel } from "../../model/types";
import { rowSpec, type RowRef, type RowSpec } from "../rows";
import { nodeGroup } from "../tags";
import { clusterRow } from "./clusterRouter";

export interface NodeSwitchNb {
    node: string;
    switchName: string;
    subnet: string;
    routerPort: string;
    routerPeerPort: string;
    router: { ip: string; cidr: string; mac: string };
    mgmtPort: string;
    mgmt: { ip: string; cidr: string; mac: string };
    clusterRouter: string;
}

export function pickNodeSwitch(m: NodeSwitchNb | NodeNetworkModel): NodeSwitchNb {
    const addr = (a: { ip: string; cidr: string; mac: string }) => ({ ip: a.ip, cidr: a.cidr, mac: a.mac });
    return {
        node: m.node,
        switchName: m.switchName,
        subnet: m.subnet,
        routerPort: m.routerPort,
        routerPeerPort: m.routerPeerPort,
        router: addr(m.router),
        mgmtPort: m.mgmtPort,
        mgmt: addr(m.mgmt),
        clusterRouter: m.clusterRouter,
    };
}

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
