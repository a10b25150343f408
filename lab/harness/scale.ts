// A cluster model of many nodes and a few gateways (dedicated NICs), for the concurrency test and
// the benchmark: the dev stack with its nodes replaced, a cluster subnet with room for 1024 nodes.
import { validateConfig } from "@ovn-kubernetes-as-code/cluster/config";
import { buildClusterModel, type ClusterModel } from "@ovn-kubernetes-as-code/cluster/model";
import { manyNodes } from "./configs";

export const nodeName = (i: number) => `node-${String(i).padStart(4, "0")}`;

export function scaleModel(nodes: number, gateways: number): ClusterModel {
    const cfg = manyNodes(Array.from({ length: nodes }, (_, i) => nodeName(i + 1)));
    cfg.clusterSubnet = "10.128.0.0/14";
    cfg.hostSubnetLength = 24;
    for (let g = 0; g < gateways; g++) {
        cfg.nodes[g + 1].roles = ["node", "gateway"];
        cfg.nodes[g + 1].gateway = {
            mode: "dedicated",
            interface: "eth1",
            physicalIp: `172.16.${g}.10/24`,
            defaultGateway: `172.16.${g}.1`,
            rampoutSubnets: [],
        };
    }
    return buildClusterModel(validateConfig(cfg));
}

/** A chassis system-id and NIC MAC per gateway node, as the host side would report them. */
export function gatewayHosts(model: ClusterModel): Record<string, { systemId: string; macAddress: string }> {
    return Object.fromEntries(
        model.gateways.map((g, i) => [
            g.node,
            {
                systemId: `chassis-${g.node}`,
                macAddress: `52:54:00:00:${(i >> 8).toString(16).padStart(2, "0")}:${(i & 255).toString(16).padStart(2, "0")}`,
            },
        ]),
    );
}
