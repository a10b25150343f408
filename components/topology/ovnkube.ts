// ovnkube mode (Kubernetes enabled): the project owns the plan and what ovnkube reads, ovnkube
// realises the per-node topology (README "Who writes what"). The project sets up each gateway
// NIC's bridge on the host (ovnkube-node adopts it through -gateway-interface), then the
// Kubernetes objects: the Node annotations carrying the plan first, the workloads after them.
// Last come the expectations: they write nothing, and report where ovnkube's rows differ from
// the plan (create and update wait for ovnkube to realise them; refresh shows drift by row).
import * as pulumi from "@pulumi/pulumi";
import { GatewayHost } from "../hosts";
import { hostCommand } from "../hosts/command";
import { ovnkubeNodeCleanupScript } from "../hosts/scripts/ovnkubeNode";
import { Ovnkube } from "../kube/ovnkubeComponent";
import { NorthboundExpectation } from "../nb/expectation";
import { NB_KINDS } from "../nb/kinds";
import { hostOf, type TopologyContext } from "./context";
import type { ExpectedRows, NbConnection } from "../nb/kinds/common";
import type { OvnkubeNodeModel } from "../model/types";

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
                { parent: t.parent, dependsOn: [t.chassis.get(gateway.node)!.controller] },
            ),
    );
    // Created before ovnkube, so deleted after it: once its pods have gone, each node's host state
    // that ovnkube-node made is removed, before its chassis, databases and bridge are undone. Only
    // its own: a dependency on every node's would grow each node's state with the cluster.
    const cleanups = model.kube.nodes.map((node) =>
        hostCommand(
            t.parent,
            `${name}-${node.name}-ovnkube-node-cleanup`,
            ovnkubeNodeCleanupScript(node.name, model.kube),
            { connection: t.connection(node.name) },
            {
                dependsOn: [
                    t.databasesOf(node.name),
                    t.chassis.get(node.name)!.controller,
                    ...bridges.filter((_, i) => model.gateways[i].node === node.name),
                ],
            },
        ),
    );
    // A node's cleanup comes after its databases, chassis and bridge: waiting for the cleanups
    // waits for those, one dependency per node in the component's record instead of four. Only
    // hosts that run no ovnkube-node (no cleanup) are waited for one by one.
    const nodes = new Set(model.kube.nodes.map((n) => n.name));
    const elsewhere = [
        ...[...t.chassis].filter(([host]) => !nodes.has(host)).map(([, c]) => c.controller),
        ...bridges.filter((_, i) => !nodes.has(model.gateways[i].node)),
        ...(cleanups.length === 0 ? t.databases : []),
    ];
    const ovnkube = new Ovnkube(
        `${name}-ovnkube`,
        { model: model.kube, kubeconfig: args.kubeconfig },
        { parent: t.parent, dependsOn: [...cleanups, ...elsewhere] },
    );

    // After the workloads, which come after every node's plan: depending on the component itself
    // would name each of its children in every expectation's state, the cluster's size each time.
    const expect = (subject: string, nb: NbConnection, rows: pulumi.Input<ExpectedRows>) =>
        new NorthboundExpectation(
            `${name}-expect-${subject.replace("/", "-")}`,
            { nb, subject, rows },
            { parent: t.parent, dependsOn: ovnkube.workloads },
        );
    // Each kind's projection (NB_KINDS[…].ovnkube) says what ovnkube writes in place of its rows.
    const { ClusterRouter, NodeSwitch, GatewayRouter } = NB_KINDS;
    const gatewayRows = (node: OvnkubeNodeModel) =>
        t.chassis.get(node.name)!.systemId.apply((systemId) => GatewayRouter.ovnkube(model, node, systemId));
    if (model.architecture === "interconnect") {
        // Every zone's NB holds its own node's rows, the cluster router and the transit switch.
        for (const node of model.kube.nodes) {
            const network = model.nodeNetworks.find((n) => n.node === node.name)!;
            const rows = gatewayRows(node).apply((gateway) => ({
                ...ClusterRouter.ovnkube(model, node),
                ...NodeSwitch.ovnkube(network, node),
                ...gateway,
            }));
            expect(`zone/${node.name}`, t.nb(node.name), rows);
        }
        return ovnkube;
    }
    const nb = t.nb(model.central!.host);
    expect("cluster", nb, ClusterRouter.ovnkube(model));
    for (const node of model.kube.nodes)
        expect(
            `node/${node.name}`,
            nb,
            NodeSwitch.ovnkube(
                model.nodeNetworks.find((n) => n.node === node.name)!,
                node,
            ),
        );
    for (const node of model.kube.nodes) expect(`gateway/${node.name}`, nb, gatewayRows(node));
    return ovnkube;
}
