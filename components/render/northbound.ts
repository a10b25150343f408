// The desired Northbound state of a stack, as the NB resources will apply it: every group's rows
// (the same pure row builders the providers use), for review and for air-gapped use. Values only
// known at apply time (a chassis' system-id, a gateway NIC's MAC) are shown as placeholders.
import { clusterRouterRows, pickClusterRouter } from "../nb/groups/clusterRouter";
import { gatewayRouterRows, pickGatewayRouter } from "../nb/groups/gatewayRouter";
import { nodeSwitchRows, pickNodeSwitch } from "../nb/groups/nodeSwitch";
import type { RowSpec } from "../nb/rows";
import type { ClusterModel } from "../model/types";

export interface NbGroup {
    /** The resource that owns these rows: ClusterRouter, NodeSwitch or GatewayRouter. */
    resource: string;
    name: string;
    rows: RowSpec[];
}

export function desiredNorthbound(model: ClusterModel, owner: string): NbGroup[] {
    return [
        { resource: "ClusterRouter", name: model.clusterRouter.name, rows: clusterRouterRows(owner, pickClusterRouter(model.clusterRouter)) },
        ...model.nodeNetworks.map((n) => ({ resource: "NodeSwitch", name: n.node, rows: nodeSwitchRows(owner, pickNodeSwitch(n)) })),
        ...model.gateways.map((g) => ({
            resource: "GatewayRouter",
            name: g.node,
            rows: gatewayRouterRows(owner, pickGatewayRouter(g), {
                systemId: `<system-id of ${g.node}>`,
                macAddress: `<MAC of ${g.interface} on ${g.node}>`,
            }),
        })),
    ];
}
