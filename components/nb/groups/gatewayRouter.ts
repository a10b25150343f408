// One gateway's rows (gateway-init): the gateway router GR_<node> bound to the node's chassis,
// its join port pair (the peer sits on the cluster's join switch), the external switch ext_<node>
// with the localnet uplink and the router's external port pair, SNAT of the cluster subnet to the
// physical IP, its static routes, its own TCP/UDP load balancers, and this gateway's routes on
// the cluster router (its ECMP member of 0.0.0.0/0 and its rampout src-ip routes).
import type { GatewayModel } from "../../model/types";
import { rowSpec, type RowRef, type RowSpec } from "../rows";
import type { NbTable } from "../tables";
import { gatewayGroup } from "../tags";
import { clusterRow } from "./clusterRouter";

export interface GatewayRouterNb {
    node: string;
    router: string;
    joinPort: string;
    joinPeerPort: string;
    join: { ip: string; cidr: string; mac: string };
    clusterRouterJoinIp: string;
    externalSwitch: string;
    externalPort: string;
    externalPeerPort: string;
    uplinkPort: string;
    physnet: string;
    /** The physical address; its MAC is not here: the router port takes the host NIC's real MAC (macAddress). */
    physical: { ip: string; cidr: string };
    defaultGateway: string;
    rampoutSubnets: string[];
    clusterSubnet: string;
    clusterRouter: string;
}

/** What the gateway router needs from the chassis and the host, known only at apply time. */
export interface GatewayHostFacts {
    /** external_ids:system-id of the node's Open_vSwitch row: the chassis GR_<node> is bound to. */
    systemId: string;
    /** The host NIC's MAC: router and host share IP and MAC on the physical network. */
    macAddress: string;
}

export function pickGatewayRouter(m: GatewayRouterNb | GatewayModel): GatewayRouterNb {
    return {
        node: m.node,
        router: m.router,
        joinPort: m.joinPort,
        joinPeerPort: m.joinPeerPort,
        join: { ip: m.join.ip, cidr: m.join.cidr, mac: m.join.mac },
        clusterRouterJoinIp: m.clusterRouterJoinIp,
        externalSwitch: m.externalSwitch,
        externalPort: m.externalPort,
        externalPeerPort: m.externalPeerPort,
        uplinkPort: m.uplinkPort,
        physnet: m.physnet,
        physical: { ip: m.physical.ip, cidr: m.physical.cidr },
        defaultGateway: m.defaultGateway,
        rampoutSubnets: [...m.rampoutSubnets],
        clusterSubnet: m.clusterSubnet,
        clusterRouter: m.clusterRouter,
    };
}

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

export function gatewayRouterRows(owner: string, g: GatewayRouterNb, host: GatewayHostFacts): RowSpec[] {
    const group = gatewayGroup(g.node);
    const own = (name: keyof typeof GATEWAY_ROWS): RowRef => ({ group, ...GATEWAY_ROWS[name] });
    const row = (name: keyof typeof GATEWAY_ROWS, parts: Parameters<typeof rowSpec>[4]) =>
        rowSpec(owner, group, GATEWAY_ROWS[name].key, GATEWAY_ROWS[name].table, parts);
    const route = (prefix: string, nexthop: string, extra: { policy?: string; outputPort?: string } = {}) => ({
        ip_prefix: prefix,
        nexthop,
        policy: extra.policy ? [extra.policy] : [],
        output_port: extra.outputPort ? [extra.outputPort] : [],
    });
    const joinMac = g.join.mac.toLowerCase();
    const nicMac = host.macAddress.toLowerCase();
    const clusterRouter = clusterRow(g.clusterRouter, "router");
    return [
        row("router", {
            columns: { name: g.router },
            maps: {
                options: { chassis: host.systemId, lb_force_snat_ip: g.join.ip },
                external_ids: { physical_ip: g.physical.ip },
            },
            refs: { load_balancer: [own("lbTcp"), own("lbUdp")] },
        }),
        row("routerJoinPort", { columns: { name: g.joinPort, mac: joinMac, networks: [g.join.cidr] }, parent: own("router") }),
        row("joinRouterPort", {
            columns: { name: g.joinPeerPort, type: "router", addresses: [joinMac] },
            maps: { options: { "router-port": g.joinPort } },
            parent: clusterRow(g.clusterRouter, "joinSwitch"),
        }),
        row("externalSwitch", { columns: { name: g.externalSwitch } }),
        row("uplinkPort", {
            columns: { name: g.uplinkPort, type: "localnet", addresses: ["unknown"] },
            maps: { options: { network_name: g.physnet } },
            parent: own("externalSwitch"),
        }),
        row("routerExternalPort", { columns: { name: g.externalPort, mac: nicMac, networks: [g.physical.cidr] }, parent: own("router") }),
        row("externalRouterPort", {
            columns: { name: g.externalPeerPort, type: "router", addresses: [nicMac] },
            maps: { options: { "router-port": g.externalPort } },
            parent: own("externalSwitch"),
        }),
        row("snat", { columns: { type: "snat", logical_ip: g.clusterSubnet, external_ip: g.physical.ip }, parent: own("router") }),
        row("clusterRoute", { columns: route(g.clusterSubnet, g.clusterRouterJoinIp), parent: own("router") }),
        row("defaultRoute", { columns: route("0.0.0.0/0", g.defaultGateway, { outputPort: g.externalPort }), parent: own("router") }),
        // Each gateway owns its own member of the cluster router's default route: with several
        // gateways OVN spreads traffic over them (ECMP), and removing one gateway removes only its member.
        row("clusterDefaultRoute", { columns: route("0.0.0.0/0", g.join.ip), parent: clusterRouter }),
        ...g.rampoutSubnets.map((subnet) =>
            rowSpec(owner, group, rampoutRouteKey(subnet), "Logical_Router_Static_Route", {
                columns: route(subnet, g.join.ip, { policy: "src-ip" }),
                parent: clusterRouter,
            }),
        ),
        row("lbTcp", { columns: { name: "", protocol: ["tcp"] }, maps: { external_ids: { TCP_lb_gateway_router: g.router } } }),
        row("lbUdp", { columns: { name: "", protocol: ["udp"] }, maps: { external_ids: { UDP_lb_gateway_router: g.router } } }),
    ];
}
