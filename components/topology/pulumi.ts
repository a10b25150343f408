// Pulumi mode (Kubernetes disabled): the project's providers write the whole topology, as the
// seeds' master-init / minion-init / gateway-init did: NB cluster router → per node the switch
// and the management port's host side → per gateway the NIC's bridge, the gateway router, flows →
// with VTEP gateways, vxlan_mode on the central, per VTEP its host side and its type=vtep ports.
import { VtepBindings, VtepHost, VxlanMode } from "../hosts";
import { ClusterRouter } from "../nb/resources/clusterRouterResource";
import { VtepGateway } from "../nb/resources/vtepGatewayResource";
import { Gateway } from "../network/gateway";
import { NodeNetwork } from "../network/nodeNetwork";
import { centralHostsOf, hostOf, type TopologyContext } from "./context";

export function pulumiTopology(t: TopologyContext): void {
    const { model, name, owner } = t;
    // Pulumi mode always has a central: one NB holds every node's rows.
    const nb = t.nb(centralHostsOf(model)[0].name);
    const nbReady = [...t.databases, ...centralHostsOf(model).map((h) => t.bundles.get(h.name)!)];
    const clusterRouter = new ClusterRouter(
        `${name}-cluster-router`,
        { nb, owner, router: model.clusterRouter },
        { parent: t.parent, dependsOn: nbReady },
    );

    const networks = new Map<string, NodeNetwork>();
    for (const network of model.nodeNetworks) {
        const n = new NodeNetwork(
            `${name}-${network.node}`,
            { network, nb, owner, connection: t.connection(network.node) },
            { parent: t.parent, dependsOn: [clusterRouter, t.chassis.get(network.node)!.controller] },
        );
        networks.set(network.node, n);
    }
    for (const gateway of model.gateways) {
        new Gateway(
            `${name}-${gateway.node}-gateway`,
            {
                gateway,
                nb,
                owner,
                connection: t.connection(gateway.node),
                systemId: t.chassis.get(gateway.node)!.systemId,
                datapathType: hostOf(model, gateway.node).datapathType,
            },
            { parent: t.parent, dependsOn: [clusterRouter, t.chassis.get(gateway.node)!.controller] },
        );
    }
    if (model.vteps.length === 0) return;
    // Before any VTEP's chassis registers: northd would switch to VXLAN mode (../hosts/vtep).
    const central = centralHostsOf(model)[0].name;
    const vxlanMode = new VxlanMode(`${name}-${central}`, { connection: t.connection(central) }, { parent: t.parent, dependsOn: nbReady });
    for (const vtep of model.vteps) {
        const host = hostOf(model, vtep.host);
        const vtepHost = new VtepHost(
            `${name}-${vtep.host}`,
            { host, connection: t.connection(vtep.host) },
            { parent: t.parent, dependsOn: [t.bundles.get(vtep.host)!, vxlanMode.command] },
        );
        new VtepBindings(
            `${name}-${vtep.host}-vtep-bindings`,
            {
                ssh: host.ssh,
                privateKeyConfig: t.privateKeyConfig,
                physicalSwitch: vtep.physicalSwitch,
                ports: vtep.ports,
                bindings: vtep.bindings,
            },
            { parent: t.parent, dependsOn: [vtepHost.vtep] },
        );
        new VtepGateway(
            `${name}-${vtep.host}-vtep-gateway`,
            { nb, owner, vtep },
            { parent: t.parent, dependsOn: vtep.switchPorts.map((s) => networks.get(s.switchName)!.switch) },
        );
    }
}
