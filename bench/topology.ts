// The benchmark's topology: the cluster router, every node network and a few gateways of a
// scale model, as provider inputs (one resource each) and as row specs (for the floor).
import { clusterRouterRows, pickClusterRouter } from "../components/nb/groups/clusterRouter";
import { gatewayRouterRows, pickGatewayRouter } from "../components/nb/groups/gatewayRouter";
import { nodeSwitchRows, pickNodeSwitch } from "../components/nb/groups/nodeSwitch";
import type { RowSpec } from "../components/nb/rows";
import { clusterGroup, gatewayGroup, nodeGroup } from "../components/nb/tags";
import type { ClusterModel } from "../components/model/types";

export interface Resource {
    type: "ClusterRouter" | "NodeSwitch" | "GatewayRouter";
    /** The kind's own inputs (without nb, owner, version). */
    inputs: Record<string, unknown>;
}

export type GatewayHosts = Record<string, { systemId: string; macAddress: string }>;

export function resources(model: ClusterModel, hosts: GatewayHosts): { router: Resource; rest: Resource[] } {
    return {
        router: { type: "ClusterRouter", inputs: { router: pickClusterRouter(model.clusterRouter) } },
        rest: [
            ...model.nodeNetworks.map((n): Resource => ({ type: "NodeSwitch", inputs: { network: pickNodeSwitch(n) } })),
            ...model.gateways.map((g): Resource => ({ type: "GatewayRouter", inputs: { gateway: pickGatewayRouter(g), ...hosts[g.node] } })),
        ],
    };
}

export function groups(owner: string, model: ClusterModel, hosts: GatewayHosts, nodes = model.nodeNetworks, gateways = model.gateways): { group: string; specs: RowSpec[] }[] {
    return [
        { group: clusterGroup(model.clusterRouter.name), specs: clusterRouterRows(owner, pickClusterRouter(model.clusterRouter)) },
        ...nodes.map((n) => ({ group: nodeGroup(n.node), specs: nodeSwitchRows(owner, pickNodeSwitch(n)) })),
        ...gateways.map((g) => ({ group: gatewayGroup(g.node), specs: gatewayRouterRows(owner, pickGatewayRouter(g), hosts[g.node]) })),
    ];
}
