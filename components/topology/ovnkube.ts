// ovnkube mode (Kubernetes enabled): the project owns the plan and what ovnkube reads, ovnkube
// realises the per-node topology (README "Who writes what"). The project sets up each gateway
// NIC's bridge on the host (ovnkube-node adopts it through -gateway-interface), then the
// Kubernetes objects: the Node annotations carrying the plan first, the workloads after them.
// Last come the expectations: they write nothing, and report where ovnkube's rows differ from
// the plan (create and update wait for ovnkube to realise them; refresh shows drift by row).
import * as pulumi from "@pulumi/pulumi";
import { GatewayHost } from "../hosts";
import { Ovnkube } from "../kube/ovnkube";
import { NorthboundExpectation } from "../nb/expectation";
import { hostOf, type TopologyContext } from "./context";
import { clusterRouterRows, gatewayRouterRows, nodeSwitchRows } from "./expectations";

export interface OvnkubeTopologyArgs {
    kubeconfig?: pulumi.Input<string>;
}

export function ovnkubeTopology(t: TopologyContext, args: OvnkubeTopologyArgs): Ovnkube {
    const { model, name, nb } = t;
    const bridges = model.gateways.map(
        (gateway) =>
            new GatewayHost(
                `${name}-${gateway.node}-gateway-bridge`,
                { gateway, connection: t.connection(gateway.node), datapathType: hostOf(model, gateway.node).datapathType },
                { parent: t.parent, dependsOn: [t.chassis.get(gateway.node)!] },
            ),
    );
    const ovnkube = new Ovnkube(`${name}-ovnkube`, { model: model.kube, kubeconfig: args.kubeconfig }, { parent: t.parent, dependsOn: [t.central, ...t.chassis.values(), ...bridges] });

    const expect = (subject: string, rows: pulumi.Input<Record<string, Record<string, string>>>) =>
        new NorthboundExpectation(`${name}-expect-${subject.replace("/", "-")}`, { nb, subject, rows }, { parent: t.parent, dependsOn: [ovnkube] });
    expect("cluster", clusterRouterRows(model));
    for (const network of model.nodeNetworks) expect(`node/${network.node}`, nodeSwitchRows(network));
    for (const node of model.kube.nodes)
        expect(`gateway/${node.name}`, t.chassis.get(node.name)!.systemId.apply((systemId) => gatewayRouterRows(model, node, systemId)));
    return ovnkube;
}
