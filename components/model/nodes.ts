// What a node's config makes of it, for the semantic checks and the model alike: what it runs (by
// its roles), its tunnel address, and the OVS bridges its NICs move onto.
import type { DatapathType, GatewayConfig, NodeConfig } from "../config/types";
import { familyOf } from "../values";
import { nicBridge } from "./names";

type Roles = Pick<NodeConfig, "roles">;

/** A Kubernetes node: it has a node subnet and, in ovnkube mode, a gateway router. */
export const isK8sNode = (n: Roles): boolean => n.roles.includes("master") || n.roles.includes("node");

/** Runs ovn-controller: every role but a bare central. */
export const isChassis = (n: Roles): boolean => n.roles.some((r) => r !== "central");

/** ovn-encap-ip: `tunnelIp`, else the SSH address when it is an IP address (a DNS name gives none). */
export const tunnelIpOf = (n: Pick<NodeConfig, "tunnelIp" | "address">): string | undefined =>
    n.tunnelIp ?? (familyOf(n.address) ? n.address : undefined);

/** The node's own addresses, one per family (the kubelet's `--node-ip`): `nodeIp`, else its tunnel IP. */
export const nodeIpsOf = (n: Pick<NodeConfig, "tunnelIp" | "address" | "nodeIp">): string[] => {
    const tunnel = tunnelIpOf(n);
    return n.nodeIp !== undefined ? n.nodeIp.split(",") : tunnel ? [tunnel] : [];
};

/** The OVS bridge a gateway NIC moves onto: `gateway.bridge`, else `br<NIC>`. */
export const gatewayBridgeOf = (g: Pick<GatewayConfig, "interface" | "bridge">): string => g.bridge ?? nicBridge(g.interface);

/**
 * With the userspace datapath the tunnel NIC must sit on an OVS bridge (`br<NIC>`), unless it is a
 * shared gateway's NIC, whose bridge already is one.
 */
export function tunnelBridgeOf(
    n: Pick<NodeConfig, "tunnelInterface" | "gateway">,
    datapathType: DatapathType | undefined,
): { interface: string; bridge: string } | undefined {
    if (datapathType !== "netdev" || !n.tunnelInterface) return undefined;
    if (n.gateway?.mode === "shared" && n.gateway.interface === n.tunnelInterface) return undefined;
    return { interface: n.tunnelInterface, bridge: nicBridge(n.tunnelInterface) };
}
