// What the plan expects of the rows ovnkube writes (ovnkube mode), as NorthboundExpectation rows:
// per node its switch subnet and router port, per node its gateway router's chassis, join
// address and SNAT address, and the cluster router's join address. Pure: values come from the
// model, and the chassis system-id is passed in (it is known once the chassis exists).
import type { ClusterModel, NodeNetworkModel, OvnkubeNodeModel } from "../model/types";
import * as names from "../model/names";

export type ExpectedRows = Record<string, Record<string, string>>;

export function clusterRouterRows(model: ClusterModel): ExpectedRows {
    const r = model.clusterRouter;
    return {
        [`Logical_Router ${r.name}`]: { name: r.name },
        [`Logical_Switch ${r.joinSwitch}`]: { name: r.joinSwitch },
        [`Logical_Router_Port ${r.joinPort}`]: { networks: r.joinAddress.cidr, mac: r.joinAddress.mac },
    };
}

/** ovnkube-master builds the node's switch from the node-subnets annotation: subnet and router port as planned. */
export function nodeSwitchRows(network: NodeNetworkModel): ExpectedRows {
    return {
        [`Logical_Switch ${network.switchName}`]: { "other_config:subnet": network.subnet },
        [`Logical_Router_Port ${network.routerPort}`]: { networks: network.router.cidr, mac: network.router.mac },
    };
}

/** Every node's gateway router: bound to its chassis, joined at base + node-id, SNAT to the gateway bridge's address. */
export function gatewayRouterRows(model: ClusterModel, node: Pick<OvnkubeNodeModel, "name" | "gatewayRouterJoin" | "gatewayIp">, systemId: string): ExpectedRows {
    const router = names.gatewayRouter(node.name);
    return {
        [`Logical_Router ${router}`]: { "options:chassis": systemId },
        [`Logical_Router_Port ${names.routerToJoin(router)}`]: { networks: node.gatewayRouterJoin.cidr, mac: node.gatewayRouterJoin.mac },
        [`NAT ${router} snat ${model.clusterSubnet}`]: { external_ip: node.gatewayIp },
    };
}

/** Interconnect: the zone's end of the transit switch, at the cluster manager's address for the node-id. */
export function transitRows(node: OvnkubeNodeModel): ExpectedRows {
    if (!node.transit) return {};
    const port = names.routerToTransit(node.name);
    return {
        [`Logical_Switch ${names.TRANSIT_SWITCH}`]: { name: names.TRANSIT_SWITCH },
        [`Logical_Router_Port ${port}`]: { networks: node.transit.cidr, mac: node.transit.mac },
    };
}
