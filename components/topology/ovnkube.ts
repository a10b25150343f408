// ovnkube mode (Kubernetes enabled): the project owns the plan and what ovnkube reads, ovnkube
// realises the per-node topology (README "Who writes what"). The project sets up each gateway
// NIC's bridge on the host (ovnkube-node adopts it through -gateway-interface), then the
// Kubernetes objects: the Node annotations carrying the plan first, the workloads after them.
import type * as pulumi from "@pulumi/pulumi";
import { GatewayHost } from "../hosts";
import { Ovnkube } from "../kube/ovnkube";
import { hostOf, type TopologyContext } from "./context";

export interface OvnkubeTopologyArgs {
    kubeconfig?: pulumi.Input<string>;
}

export function ovnkubeTopology(t: TopologyContext, args: OvnkubeTopologyArgs): Ovnkube {
    const { model, name } = t;
    const bridges = model.gateways.map(
        (gateway) =>
            new GatewayHost(
                `${name}-${gateway.node}-gateway-bridge`,
                { gateway, connection: t.connection(gateway.node), datapathType: hostOf(model, gateway.node).datapathType },
                { parent: t.parent, dependsOn: [t.chassis.get(gateway.node)!] },
            ),
    );
    return new Ovnkube(`${name}-ovnkube`, { model: model.kube, kubeconfig: args.kubeconfig }, { parent: t.parent, dependsOn: [t.central, ...t.chassis.values(), ...bridges] });
}
