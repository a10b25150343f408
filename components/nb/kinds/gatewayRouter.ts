// The GatewayRouter kind (gateway-init): the gateway router GR_<node> bound to the node's chassis,
// its join port pair (the peer sits on the cluster's join switch), the external switch ext_<node>
// with the localnet uplink and the router's external port pair, SNAT of the cluster subnet to the
// physical IP, its static routes, its own TCP/UDP load balancers, and this gateway's routes on
// the cluster router (its ECMP member of 0.0.0.0/0 and its rampout src-ip routes).
// Inputs `gateway` (the NB part of GatewayModel), `systemId` of the node's chassis and
// `macAddress` of its NIC (both known only once the host is set up).
import type { ClusterModel, OvnkubeNodeModel } from "../../model/types";
import * as names from "../../model/names";
import { routerPortMac } from "../../model/ifAddress";
import { containsIp, networkOf, PATTERNS } from "../../values";
import { rowSpec, type RowRef, type RowSpec } from "../core/rows";
import type { NbTable } from "../core/tables";
import { gatewayGroup } from "../core/tags";
import { clusterRow } from "./clusterRouter";
import { defineKind, setCell, type ExpectedRows } from "./common";
import { address, ipv4, mac, network, networks, object, ovnName, text, type ValueOf } from "./fields";

export const GATEWAY_ROUTER_INPUTS = {
    gateway: object({
        node: text("nodeName", { replace: true }),
        router: ovnName(),
        joinPort: ovnName(),
        joinPeerPort: ovnName(),
        externalSwitch: ovnName(),
        externalPort: ovnName(),
        externalPeerPort: ovnName(),
        uplinkPort: ovnName(),
        // The localnet port's network name: an option of the uplink port, changed in place.
        physnet: text("ovnName"),
        clusterRouter: ovnName(),
        join: address(),
        // The router port takes the host NIC's real MAC (macAddress), so no MAC here.
        physical: address({ mac: false }),
        clusterSubnet: network(),
        clusterRouterJoinIp: ipv4(),
        defaultGateway: ipv4(),
        rampoutSubnets: networks({ within: "clusterSubnet" }),
    }),
    /** external_ids:system-id of the node's Open_vSwitch row: the chassis GR_<node> is bound to. */
    systemId: text("systemId"),
    /** The host NIC's MAC: router and host share IP and MAC on the physical network. */
    macAddress: mac(),
};
type GatewayRouterInputs = ValueOf<typeof GATEWAY_ROUTER_INPUTS>;
export type GatewayRouterNb = GatewayRouterInputs["gateway"];

export const GATEWAY_ROWS = {
    router: { key: "router", table: "Logical_Router" },
    routerJoinPort: { key: "router-join-port", table: "Logical_Router_Port" },
    joinRouterPort: { key: "join-router-port", table: "Logical_Switch_Port" },
    externalSwitch: { key: "external-switch", table: "Logical_Switch" },
    uplinkPort: { key: "uplink-port", table: "Logical_Switch_Port" },
    routerExternalPort: { key: "router-external-port", table: "Logical_Router_Port" },
    externalRouterPort: { key: "external-router-port", table: "Logical_Switch_Port" },
    snat: { key: "snat", table: "NAT" },
    clusterRoute: { key: "route-cluster", table: "Logical_Router_Static_Route" },
    defaultRoute: { key: "route-default", table: "Logical_Router_Static_Route" },
    clusterDefaultRoute: { key: "cluster-route-default", table: "Logical_Router_Static_Route" },
    lbTcp: { key: "lb-tcp", table: "Load_Balancer" },
    lbUdp: { key: "lb-udp", table: "Load_Balancer" },
} as const satisfies Record<string, { key: string; table: NbTable }>;

/** One src-ip route per rampout subnet; the subnet is the stable part of its key. */
export const rampoutRouteKey = (subnet: string) => `cluster-route-rampout/${subnet}`;

export function gatewayRouterRows(
    owner: string,
    i: Pick<GatewayRouterInputs, "systemId" | "macAddress"> & { gateway: GatewayRouterNb },
): RowSpec[] {
    const g = i.gateway;
    const group = gatewayGroup(g.node);
    const own = (name: keyof typeof GATEWAY_ROWS): RowRef => ({ group, ...GATEWAY_ROWS[name] });
    const key = (name: keyof typeof GATEWAY_ROWS) => GATEWAY_ROWS[name].key;
    const route = (prefix: string, nexthop: string, extra: { policy?: "src-ip"; outputPort?: string } = {}) => ({
        ip_prefix: prefix,
        nexthop,
        policy: extra.policy ? [extra.policy] : [],
        output_port: extra.outputPort ? [extra.outputPort] : [],
    });
    const joinMac = g.join.mac.toLowerCase();
    const nicMac = i.macAddress.toLowerCase();
    const clusterRouter = clusterRow(g.clusterRouter, "router");
    const onGr = { parent: own("router"), router: g.router };
    const onCluster = { parent: clusterRouter, router: g.clusterRouter };
    return [
        rowSpec(owner, group, key("router"), "Logical_Router", {
            columns: { name: g.router },
            maps: {
                options: { chassis: i.systemId, lb_force_snat_ip: g.join.ip },
                external_ids: { physical_ip: g.physical.ip },
            },
            refs: { load_balancer: [own("lbTcp"), own("lbUdp")] },
        }),
        rowSpec(owner, group, key("routerJoinPort"), "Logical_Router_Port", {
            columns: { name: g.joinPort, mac: joinMac, networks: [g.join.cidr] },
            parent: own("router"),
        }),
        rowSpec(owner, group, key("joinRouterPort"), "Logical_Switch_Port", {
            columns: { name: g.joinPeerPort, type: "router", addresses: [joinMac] },
            maps: { options: { "router-port": g.joinPort } },
            parent: clusterRow(g.clusterRouter, "joinSwitch"),
        }),
        rowSpec(owner, group, key("externalSwitch"), "Logical_Switch", { columns: { name: g.externalSwitch } }),
        rowSpec(owner, group, key("uplinkPort"), "Logical_Switch_Port", {
            columns: { name: g.uplinkPort, type: "localnet", addresses: ["unknown"] },
            maps: { options: { network_name: g.physnet } },
            parent: own("externalSwitch"),
        }),
        rowSpec(owner, group, key("routerExternalPort"), "Logical_Router_Port", {
            columns: { name: g.externalPort, mac: nicMac, networks: [g.physical.cidr] },
            parent: own("router"),
        }),
        rowSpec(owner, group, key("externalRouterPort"), "Logical_Switch_Port", {
            columns: { name: g.externalPeerPort, type: "router", addresses: [nicMac] },
            maps: { options: { "router-port": g.externalPort } },
            parent: own("externalSwitch"),
        }),
        rowSpec(owner, group, key("snat"), "NAT", {
            columns: { type: "snat", logical_ip: g.clusterSubnet, external_ip: g.physical.ip },
            ...onGr,
        }),
        rowSpec(owner, group, key("clusterRoute"), "Logical_Router_Static_Route", {
            columns: route(g.clusterSubnet, g.clusterRouterJoinIp),
            ...onGr,
        }),
        rowSpec(owner, group, key("defaultRoute"), "Logical_Router_Static_Route", {
            columns: route("0.0.0.0/0", g.defaultGateway, { outputPort: g.externalPort }),
            ...onGr,
        }),
        // Each gateway owns its own member of the cluster router's default route: with several
        // gateways OVN spreads traffic over them (ECMP), and removing one gateway removes only its member.
        rowSpec(owner, group, key("clusterDefaultRoute"), "Logical_Router_Static_Route", {
            columns: route("0.0.0.0/0", g.join.ip),
            ...onCluster,
        }),
        ...g.rampoutSubnets.map((subnet) =>
            rowSpec(owner, group, rampoutRouteKey(subnet), "Logical_Router_Static_Route", {
                columns: route(subnet, g.join.ip, { policy: "src-ip" }),
                ...onCluster,
            }),
        ),
        rowSpec(owner, group, key("lbTcp"), "Load_Balancer", {
            columns: { name: "", protocol: ["tcp"] },
            maps: { external_ids: { TCP_lb_gateway_router: g.router } },
        }),
        rowSpec(owner, group, key("lbUdp"), "Load_Balancer", {
            columns: { name: "", protocol: ["udp"] },
            maps: { external_ids: { UDP_lb_gateway_router: g.router } },
        }),
    ];
}

/**
 * ovnkube mode: every node's gateway router, bound to its chassis, joined at base + node-id, SNAT
 * to the gateway bridge's address. Built from the ovnkube node, not from this kind's rows: ovnkube
 * gives every node a gateway router, also nodes with no gateway in the stack.
 */
function ovnkubeGatewayRows(
    model: ClusterModel,
    node: Pick<OvnkubeNodeModel, "name" | "gatewayRouterJoin" | "gatewayIps">,
    systemId: string,
): ExpectedRows {
    const router = names.gatewayRouter(node.name);
    return {
        [`Logical_Router ${router}`]: { "options:chassis": systemId },
        [`Logical_Router_Port ${names.routerToJoin(router)}`]: {
            networks: setCell(node.gatewayRouterJoin.map((a) => a.cidr)),
            mac: routerPortMac(node.gatewayRouterJoin),
        },
        // One SNAT per family: the family's pod network to the node's address of that family.
        ...Object.fromEntries(model.clusterSubnets.map((c, k) => [`NAT ${router} snat ${c}`, { external_ip: node.gatewayIps[k] }])),
    };
}

export const gatewayRouterKind = defineKind({
    type: "GatewayRouter",
    inputs: GATEWAY_ROUTER_INPUTS,
    tables: [
        "Logical_Router",
        "Logical_Switch",
        "Logical_Router_Port",
        "Logical_Switch_Port",
        "Logical_Router_Static_Route",
        "NAT",
        "Load_Balancer",
    ],
    refine: (c) => {
        // The next hop must be on the physical network, or the default route can never resolve.
        const gw = c.present("gateway.defaultGateway");
        const physical = c.present("gateway.physical.cidr");
        if (
            typeof gw === "string" &&
            PATTERNS.ipv4.re.test(gw) &&
            typeof physical === "string" &&
            PATTERNS.cidr.re.test(physical) &&
            !containsIp(networkOf(physical), gw)
        ) {
            c.fail("gateway.defaultGateway", `must lie in the physical network ${networkOf(physical).text}, got ${gw}`);
        }
    },
    group: (inputs) => gatewayGroup(inputs.gateway.node),
    rows: (owner, inputs) => gatewayRouterRows(owner, inputs),
    instances: (model) =>
        model.gateways.map((g) => ({
            name: g.node,
            inputs: { gateway: g },
            placeholders: { systemId: `<system-id of ${g.node}>`, macAddress: `<MAC of ${g.interface} on ${g.node}>` },
        })),
    ovnkube: ovnkubeGatewayRows,
});
