// The host side of a node's management port (k8s-<node>): what lets the node reach its pods.
import type { NodeNetworkModel } from "../../model/types";
import { checked, checkedInt } from "../../values";
import { bashScript, type HostScript } from "./shell";
import { BOOT_BODIES } from "./boot";

export function managementPortScript(network: NodeNetworkModel): HostScript {
    const node = checked("network.node", network.node, "nodeName");
    const field = (key: string) => `nodeNetworks[${node}].${key}`;
    const mgmtIf = checked(field("mgmtInterface"), network.mgmtInterface, "ifname");
    const vars = {
        mgmt_if: mgmtIf,
        iface_id: checked(field("mgmtPort"), network.mgmtPort, "ovnName"),
        mac: checked(field("mgmt.mac"), network.mgmt.mac, "mac"),
        mtu: checkedInt(field("mtu"), network.mtu, 576, 9216),
        mgmt_cidr: checked(field("mgmt.cidr"), network.mgmt.cidr, "cidr"),
        cluster_subnet: checked(field("clusterSubnet"), network.clusterSubnet, "cidr"),
        router_ip: checked(field("router.ip"), network.router.ip, "ipv4"),
    };
    // Its addresses and route come back after a reboot through the boot entry (./boot.ts).
    return {
        create: bashScript(vars, [...BOOT_BODIES, "boot-mgmt-port", "mgmt-port-create"]),
        delete: bashScript({ mgmt_if: mgmtIf }, [...BOOT_BODIES, "mgmt-port-delete"]),
    };
}
