// The Northbound rows the plan expects, per database, for comparing a live cluster with its plan
// (`npm run status -- --svg`). The NB kinds' ovnkube-mode projections (../nb/kinds), for both writers: in Pulumi mode the project's own rows carry the
// same names and addresses. Pure. The gateway routers' chassis binding is left out: it needs each
// host's system-id, which only the host knows.
import type { ClusterModel, IfAddress } from "../model/types";
import * as names from "../model/names";
import { NB_KINDS } from "../nb/kinds";
import type { ExpectedRows } from "../nb/kinds/common";

const { ClusterRouter, NodeSwitch, GatewayRouter } = NB_KINDS;

/** A node's gateway router as planned: every node's in ovnkube mode, the gateway nodes' in Pulumi mode. */
export interface PlannedGateway {
    name: string;
    /** Its join port's address of each family. */
    gatewayRouterJoin: IfAddress[];
    /** The SNAT address of each family of pod traffic leaving through this gateway. */
    gatewayIps: string[];
    /** The external network behind it, when the stack declares the gateway's NIC. */
    external?: { cidr: string; nexthop: string };
}

export function plannedGateways(model: ClusterModel): PlannedGateway[] {
    const external = (node: string) => {
        const g = model.gateways.find((x) => x.node === node);
        return g ? { external: { cidr: g.physical.cidr, nexthop: g.defaultGateway } } : {};
    };
    if (model.writer === "ovnkube")
        return model.kube.nodes.map((n) => ({
            name: n.name,
            gatewayRouterJoin: n.gatewayRouterJoin,
            gatewayIps: n.gatewayIps,
            ...external(n.name),
        }));
    return model.gateways.map((g) => ({ name: g.node, gatewayRouterJoin: [g.join], gatewayIps: [g.physical.ip], ...external(g.node) }));
}

/** The rows of one gateway router, less its chassis binding (present or not is still compared). */
export function plannedGatewayRows(model: ClusterModel, gateway: PlannedGateway): ExpectedRows {
    const router = names.gatewayRouter(gateway.name);
    return { ...GatewayRouter.ovnkube(model, gateway, ""), [`Logical_Router ${router}`]: { name: router } };
}

/** One Northbound database and the rows the plan puts in it. */
export interface NbRows {
    /** The host whose NB it is: the (first) central, or with interconnect the zone's node. */
    host: string;
    /** Interconnect: the zone. */
    zone?: string;
    rows: ExpectedRows;
}

export function plannedNbRows(model: ClusterModel): NbRows[] {
    const gateways = plannedGateways(model);
    const gatewayRows = (node: string) => {
        const g = gateways.find((x) => x.name === node);
        return g ? plannedGatewayRows(model, g) : {};
    };
    if (model.architecture === "interconnect")
        return model.kube.nodes.map((node) => {
            const network = model.nodeNetworks.find((n) => n.node === node.name)!;
            return {
                host: node.name,
                zone: node.name,
                rows: { ...ClusterRouter.ovnkube(model, node), ...NodeSwitch.ovnkube(network, node), ...gatewayRows(node.name) },
            };
        });
    const rows: ExpectedRows = { ...ClusterRouter.ovnkube(model) };
    const kubeNode = (node: string) => model.kube.nodes.find((n) => n.name === node);
    for (const network of model.nodeNetworks)
        Object.assign(rows, NodeSwitch.ovnkube(network, kubeNode(network.node)), gatewayRows(network.node));
    return [{ host: model.central!.host, rows }];
}
