// The topology as the seeds build it: one `ovn-nbctl` command per step, as master-init,
// minion-init and gateway-init ran them. `{name}` in an argument is replaced by the output of an
// earlier command that set `capture: name` (the UUIDs of unnamed load balancers).
import type { ClusterModel, GatewayModel, NodeNetworkModel } from "@ovn-kubernetes-as-code/cluster/model";

export interface NbctlCommand {
    args: string[];
    capture?: string;
}

const cmd = (...args: string[]): NbctlCommand => ({ args });

export function clusterCommands(m: ClusterModel): NbctlCommand[] {
    const r = m.clusterRouter;
    return [
        cmd("lr-add", r.name, "--", "set", "logical_router", r.name, "external_ids:k8s-cluster-router=yes"),
        cmd("ls-add", r.joinSwitch),
        cmd("lrp-add", r.name, r.joinPort, r.joinAddress.mac, r.joinAddress.cidr),
        cmd("lsp-add", r.joinSwitch, r.joinPeerPort),
        cmd("lsp-set-type", r.joinPeerPort, "router"),
        cmd("lsp-set-addresses", r.joinPeerPort, r.joinAddress.mac),
        cmd("lsp-set-options", r.joinPeerPort, `router-port=${r.joinPort}`),
        { args: ["create", "load_balancer", "external_ids:k8s-cluster-lb-tcp=yes", "protocol=tcp"], capture: "lb-tcp" },
        { args: ["create", "load_balancer", "external_ids:k8s-cluster-lb-udp=yes", "protocol=udp"], capture: "lb-udp" },
    ];
}

export function nodeCommands(n: NodeNetworkModel): NbctlCommand[] {
    return [
        cmd(
            "ls-add",
            n.switchName,
            "--",
            "set",
            "logical_switch",
            n.switchName,
            `other_config:subnet=${n.subnet}`,
            `external_ids:gateway_ip=${JSON.stringify(n.router.cidr)}`,
        ),
        cmd("lrp-add", n.clusterRouter, n.routerPort, n.router.mac, n.router.cidr),
        cmd("lsp-add", n.switchName, n.routerPeerPort),
        cmd("lsp-set-type", n.routerPeerPort, "router"),
        cmd("lsp-set-addresses", n.routerPeerPort, n.router.mac),
        cmd("lsp-set-options", n.routerPeerPort, `router-port=${n.routerPort}`),
        cmd("lsp-add", n.switchName, n.mgmtPort),
        cmd("lsp-set-addresses", n.mgmtPort, `${n.mgmt.mac} ${n.mgmt.ip}`),
        cmd("set", "logical_switch", n.switchName, "load_balancer={lb-tcp},{lb-udp}"),
    ];
}

export function gatewayCommands(g: GatewayModel, host: { systemId: string; macAddress: string }): NbctlCommand[] {
    const tcp = `${g.router}-tcp`;
    const udp = `${g.router}-udp`;
    return [
        cmd(
            "lr-add",
            g.router,
            "--",
            "set",
            "logical_router",
            g.router,
            `options:chassis=${host.systemId}`,
            `options:lb_force_snat_ip=${g.join.ip}`,
            `external_ids:physical_ip=${g.physical.ip}`,
        ),
        cmd("lrp-add", g.router, g.joinPort, g.join.mac, g.join.cidr),
        cmd("lsp-add", "join", g.joinPeerPort),
        cmd("lsp-set-type", g.joinPeerPort, "router"),
        cmd("lsp-set-addresses", g.joinPeerPort, g.join.mac),
        cmd("lsp-set-options", g.joinPeerPort, `router-port=${g.joinPort}`),
        cmd("lr-route-add", g.router, g.clusterSubnet, g.clusterRouterJoinIp),
        cmd("--ecmp", "lr-route-add", g.clusterRouter, "0.0.0.0/0", g.join.ip),
        cmd("ls-add", g.externalSwitch),
        cmd("lsp-add", g.externalSwitch, g.uplinkPort),
        cmd("lsp-set-type", g.uplinkPort, "localnet"),
        cmd("lsp-set-addresses", g.uplinkPort, "unknown"),
        cmd("lsp-set-options", g.uplinkPort, `network_name=${g.physnet}`),
        cmd("lrp-add", g.router, g.externalPort, host.macAddress, g.physical.cidr),
        cmd("lsp-add", g.externalSwitch, g.externalPeerPort),
        cmd("lsp-set-type", g.externalPeerPort, "router"),
        cmd("lsp-set-addresses", g.externalPeerPort, host.macAddress),
        cmd("lsp-set-options", g.externalPeerPort, `router-port=${g.externalPort}`),
        cmd("lr-route-add", g.router, "0.0.0.0/0", g.defaultGateway, g.externalPort),
        cmd("lr-nat-add", g.router, "snat", g.physical.ip, g.clusterSubnet),
        { args: ["create", "load_balancer", `external_ids:TCP_lb_gateway_router=${g.router}`, "protocol=tcp"], capture: tcp },
        { args: ["create", "load_balancer", `external_ids:UDP_lb_gateway_router=${g.router}`, "protocol=udp"], capture: udp },
        cmd("set", "logical_router", g.router, `load_balancer={${tcp}},{${udp}}`),
    ];
}
