// The host side of a gateway: the NIC on its OVS bridge (shared or dedicated) and, in shared mode,
// the conntrack flows that let the host and the gateway router share that NIC.
import type { DatapathType } from "../../config/types";
import type { GatewayModel } from "../../model/types";
import { checked, checkedInt } from "./patterns";
import { bashScript, lastStdoutLine, type HostScript } from "./shell";

/**
 * Conntrack zone of the shared-gateway flows: the one ovn-kubernetes' shared gateway uses on
 * breth0 (64000), far above the zones ovn-controller allocates for logical ports.
 */
export const GATEWAY_CT_ZONE = 64000;

/** How long the flows script waits for ovn-controller to create the localnet patch port. */
export const PATCH_PORT_WAIT_SECONDS = 120;

/** The patch port ovn-controller creates on the physical bridge for a localnet port. */
export function localnetPatchPort(uplinkPort: string): string {
    return `patch-${uplinkPort}-to-br-int`;
}

/** The NIC's MAC is the last stdout line of the gateway bridge script. */
export function parseNicMac(stdout: string): string {
    return checked("gateway bridge script stdout (NIC MAC)", lastStdoutLine(stdout), "mac");
}

/** A NIC moved onto an OVS bridge: a gateway's, or (userspace datapath) the tunnel NIC's. */
export type NicBridge = Pick<GatewayModel, "node" | "mode" | "interface" | "bridge">;

function gatewayVars(gateway: NicBridge) {
    const node = checked("gateway.node", gateway.node, "nodeName");
    const field = (key: string) => `gateways[${node}].${key}`;
    if (gateway.mode !== "shared" && gateway.mode !== "dedicated") {
        throw new Error(`hosts: ${field("mode")} must be shared or dedicated, got ${JSON.stringify(gateway.mode)}`);
    }
    const nic = checked(field("interface"), gateway.interface, "ifname");
    const bridge = checked(field("bridge"), gateway.bridge, "ifname");
    if (nic === bridge) throw new Error(`hosts: ${field("bridge")} must differ from ${field("interface")} (${nic})`);
    return { node, field, vars: { mode: gateway.mode, nic, bridge } };
}

export function gatewayBridgeScript(gateway: NicBridge, datapathType: DatapathType): HostScript {
    const { node, field, vars } = gatewayVars(gateway);
    const create = { ...vars, datapath_type: checked(field("datapathType"), datapathType, "datapathType") };
    const what = `gateway ${vars.mode} ${vars.nic} on ${vars.bridge} of ${node}`;
    return {
        create: bashScript(what, create, ["common", "ip-move", "gateway-bridge-create"]),
        delete: bashScript(`${what}: undo`, vars, ["common", "ip-move", "gateway-bridge-delete"]),
    };
}

export function gatewayFlowsScript(gateway: GatewayModel): HostScript {
    const { node, field, vars } = gatewayVars(gateway);
    if (vars.mode !== "shared") throw new Error(`hosts: ${field("mode")} must be shared for gateway flows (dedicated NICs need none)`);
    const create = {
        bridge: vars.bridge,
        nic: vars.nic,
        patch_port: checked(field("uplinkPort"), localnetPatchPort(checked(field("uplinkPort"), gateway.uplinkPort, "ovnName")), "ovnName"),
        ct_zone: checkedInt("GATEWAY_CT_ZONE", GATEWAY_CT_ZONE, 1, 65535),
        wait_seconds: checkedInt("PATCH_PORT_WAIT_SECONDS", PATCH_PORT_WAIT_SECONDS, 1, 3600),
    };
    return {
        create: bashScript(`gateway flows on ${vars.bridge} of ${node}`, create, ["common", "gateway-flows-create"]),
        delete: bashScript(`gateway flows on ${vars.bridge} of ${node}: back to NORMAL`, { bridge: vars.bridge }, ["common", "gateway-flows-delete"]),
    };
}
