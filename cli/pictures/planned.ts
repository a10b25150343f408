// The planned topology as a picture (pure): the cluster router, the join switch (or with
// interconnect the transit switch between zones), every node's switch with its subnet, the gateway
// routers with their join and SNAT addresses and the external networks behind them. Above
// COLLAPSE_ABOVE nodes, nodes are drawn in groups of GROUP_SIZE, one line each, so that 50 nodes
// still read at a glance and every node is still named.
import type { ClusterModel, OvnkubeNodeModel } from "@ovn-kubernetes-as-code/cluster/model";
import * as names from "@ovn-kubernetes-as-code/cluster/model";
import { plannedGateways, plannedGatewayRows, type PlannedGateway } from "@ovn-kubernetes-as-code/cluster/status";
import { NB_KINDS } from "@ovn-kubernetes-as-code/cluster/nb";
import { rowKey, type Box, type Line, type Link, type Picture } from "./picture";

export const COLLAPSE_ABOVE = 8;
export const GROUP_SIZE = 25;

const keys = (zone: string | undefined, rows: object) => Object.keys(rows).map((r) => rowKey(zone, r));
const { ClusterRouter, NodeSwitch } = NB_KINDS;

interface NodePlan {
    name: string;
    subnet: string;
    zone?: string;
    gateway?: PlannedGateway;
    /** Interconnect: the node's address on the transit switch. */
    transit?: string;
    /** Row keys of the node's switch, gateway router and transit port. */
    switchRows: string[];
    gatewayRows: string[];
    transitRows: string[];
}

function nodePlans(model: ClusterModel): NodePlan[] {
    const interconnect = model.architecture === "interconnect";
    const gateways = plannedGateways(model);
    // A zone's transit port: what the node adds to the cluster router's projection.
    const routerRows = ClusterRouter.ovnkube(model);
    const transitKeys = (zone: string | undefined, node: OvnkubeNodeModel) =>
        keys(zone, ClusterRouter.ovnkube(model, node)).filter(
            (k) => !keys(zone, routerRows).includes(k) && !k.endsWith(`Logical_Switch ${names.TRANSIT_SWITCH}`),
        );
    return model.nodeNetworks.map((network) => {
        const zone = interconnect ? network.node : undefined;
        const gateway = gateways.find((g) => g.name === network.node);
        const kube = model.kube.nodes.find((n) => n.name === network.node);
        return {
            name: network.node,
            // Every family's, in the cluster's order.
            subnet: kube ? kube.subnets.join(" ") : network.subnet,
            zone,
            gateway,
            transit: kube?.transit?.map((t) => t.cidr).join(" "),
            switchRows: keys(zone, NodeSwitch.ovnkube(network, kube)),
            gatewayRows: gateway ? keys(zone, plannedGatewayRows(model, gateway)) : [],
            transitRows: kube && interconnect ? transitKeys(zone, kube) : [],
        };
    });
}

const gatewayLines = (g: PlannedGateway): string[] => [
    `join ${g.gatewayRouterJoin.map((a) => a.cidr).join(" ")}`,
    `SNAT → ${g.gatewayIps.join(" ")}`,
];
const externalTitle = (g: PlannedGateway) =>
    g.external ? `${names.externalSwitch(g.name)} ${g.external.cidr}` : `${names.externalSwitch(g.name)} (NIC of the default route)`;

/** One node drawn in full: its switch, and its gateway router with the external network behind it. */
function nodeBoxes(n: NodePlan, router: string, join: string, boxes: Box[], links: Link[]): void {
    const sw = `switch:${n.name}`;
    boxes.push({ id: sw, kind: "switch", title: n.name, lines: [{ text: n.subnet, rows: [] }], rows: n.switchRows, zone: n.zone });
    links.push({ from: router, to: sw, label: names.routerToSwitch(n.name) });
    if (!n.gateway) return;
    const gr = `gateway:${n.name}`;
    boxes.push({
        id: gr,
        kind: "gateway",
        title: names.gatewayRouter(n.name),
        lines: gatewayLines(n.gateway).map((text) => ({ text, rows: [] })),
        rows: n.gatewayRows,
        zone: n.zone,
    });
    links.push({ from: join, to: gr, label: names.routerToJoin(names.gatewayRouter(n.name)) });
    const ext = `external:${n.name}`;
    boxes.push({
        id: ext,
        kind: "external",
        title: externalTitle(n.gateway),
        lines: n.gateway.external ? [{ text: `via ${n.gateway.external.nexthop}`, rows: [] }] : [],
        rows: [],
        zone: n.zone,
    });
    links.push({ from: gr, to: ext });
}

/** A collapsed group's table: a line per node with what its full boxes would show, in aligned columns. */
function nodeLines(group: readonly NodePlan[]): Line[] {
    const columns = group.map((n) => [
        n.name,
        n.subnet,
        n.transit ? `transit ${n.transit}` : "",
        n.gateway ? `${names.gatewayRouter(n.name)} SNAT → ${n.gateway.gatewayIps.join(" ")}` : "",
        n.gateway?.external ? n.gateway.external.cidr : "",
    ]);
    const widths = columns[0].map((_, i) => Math.max(...columns.map((c) => c[i].length)));
    return group.map((n, j) => ({
        text: columns[j]
            .map((c, i) => c.padEnd(widths[i]))
            .filter((_, i) => widths[i] > 0)
            .join("  ")
            .trimEnd(),
        rows: [...n.switchRows, ...n.gatewayRows, ...n.transitRows],
    }));
}

function groups<T>(items: readonly T[]): T[][] {
    const out: T[][] = [];
    for (let i = 0; i < items.length; i += GROUP_SIZE) out.push(items.slice(i, i + GROUP_SIZE));
    return out;
}

export function plannedPicture(model: ClusterModel, stack: string): Picture {
    const nodes = nodePlans(model);
    const interconnect = model.architecture === "interconnect";
    const collapse = nodes.length > COLLAPSE_ABOVE;
    const boxes: Box[] = [];
    const links: Link[] = [];
    const r = model.clusterRouter;
    const subtitle = `${model.writer === "pulumi" ? "Pulumi mode" : `ovnkube mode (ovn-kubernetes ${model.kube.version})`}, ${model.architecture}, cluster ${model.clusterSubnets[0]}, ${nodes.length} nodes`;
    const title = `${stack}: planned topology`;
    const routerRows = (zone?: string) =>
        keys(zone, ClusterRouter.ovnkube(model)).filter((k) => !k.endsWith(`Logical_Switch ${r.joinSwitch}`));
    const joinRows = (zone?: string) => [rowKey(zone, `Logical_Switch ${r.joinSwitch}`)];

    if (!interconnect) {
        const router = `router:${r.name}`;
        const join = `switch:${r.joinSwitch}`;
        boxes.push({
            id: router,
            kind: "router",
            title: r.name,
            lines: [{ text: `cluster ${r.clusterSubnet}`, rows: [] }],
            rows: routerRows(),
        });
        boxes.push({ id: join, kind: "switch", title: r.joinSwitch, lines: [{ text: model.joinSubnets[0], rows: [] }], rows: joinRows() });
        links.push({ from: router, to: join, label: `${r.joinPort} ${r.joinAddress.cidr}` });
        if (!collapse) for (const n of nodes) nodeBoxes(n, router, join, boxes, links);
        else
            groups(nodes).forEach((group, i) => {
                const id = `nodes:${i}`;
                boxes.push({
                    id,
                    kind: "nodes",
                    title: `nodes ${i * GROUP_SIZE + 1}-${i * GROUP_SIZE + group.length}: switch, subnet, gateway router`,
                    lines: nodeLines(group),
                    rows: [],
                });
                links.push({ from: router, to: id });
                if (group.some((n) => n.gateway)) links.push({ from: join, to: id });
            });
        return { title, subtitle, boxes, links, zones: [] };
    }

    // Interconnect: every node is a zone with its own cluster router, join switch, switch and
    // gateway router; the zones' cluster routers meet on the transit switch.
    const transit = `switch:${names.TRANSIT_SWITCH}`;
    const transitKeys = nodes.map((n) => rowKey(n.zone, `Logical_Switch ${names.TRANSIT_SWITCH}`));
    boxes.push({
        id: transit,
        kind: "switch",
        title: names.TRANSIT_SWITCH,
        lines: [{ text: model.kube.transitSubnets[0], rows: [] }],
        rows: transitKeys,
    });
    if (collapse) {
        groups(nodes).forEach((group, i) => {
            const id = `nodes:${i}`;
            const zoneRows = group.flatMap((n) => [...routerRows(n.zone), ...joinRows(n.zone)]);
            boxes.push({
                id,
                kind: "nodes",
                title: `zones ${i * GROUP_SIZE + 1}-${i * GROUP_SIZE + group.length}: ${r.name} + join each; switch, subnet, transit, gateway router`,
                lines: nodeLines(group),
                rows: zoneRows,
            });
            links.push({ from: transit, to: id });
        });
        return { title, subtitle, boxes, links, zones: [] };
    }
    for (const n of nodes) {
        const router = `router:${n.name}`;
        const join = `join:${n.name}`;
        boxes.push({
            id: router,
            kind: "router",
            title: r.name,
            lines: [{ text: `transit ${n.transit}`, rows: [] }],
            rows: [...routerRows(n.zone), ...n.transitRows],
            zone: n.zone,
        });
        boxes.push({
            id: join,
            kind: "switch",
            title: r.joinSwitch,
            lines: [{ text: model.joinSubnets[0], rows: [] }],
            rows: joinRows(n.zone),
            zone: n.zone,
        });
        links.push({ from: transit, to: router, label: names.routerToTransit(n.name) });
        links.push({ from: router, to: join });
        nodeBoxes(n, router, join, boxes, links);
    }
    return { title, subtitle, boxes, links, zones: nodes.map((n) => n.name) };
}
