// The host side of a gateway: its NIC on its OVS bridge (./nicMove.ts; shared: the host's
// addresses follow the NIC, dedicated: the NIC leaves the host stack) and, in shared mode, the
// conntrack flows that let the host and the gateway router share that NIC.
import { GatewayMode, type DatapathType } from "../../config/types";
import type { GatewayModel } from "../../model/types";
import { checked, checkedInt } from "../../values";
import { bashScript, type HostScript } from "./shell";
import { nicMoveConfirmScript, nicMoveScript, nicVars, type NicBridge } from "./nicMoveScript";
import { BOOT_BODIES } from "./boot";

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

/** The gateway's NIC as a NIC move sees it. */
export function gatewayNic(gateway: Pick<GatewayModel, "node" | "mode" | "interface" | "bridge">): NicBridge {
    return { node: gateway.node, interface: gateway.interface, bridge: gateway.bridge, mode: gateway.mode, role: "gateway" };
}

export const gatewayBridgeScript = (gateway: GatewayModel, datapathType: DatapathType, moveResource?: string): HostScript =>
    nicMoveScript(gatewayNic(gateway), datapathType, moveResource);

export const gatewayConfirmScript = (gateway: GatewayModel, token: string, moveResource: string): string =>
    nicMoveConfirmScript(gatewayNic(gateway), token, moveResource);

export function gatewayFlowsScript(gateway: GatewayModel): HostScript {
    const { node, field, vars } = nicVars(gatewayNic(gateway));
    if (vars.mode !== GatewayMode.shared)
        throw new Error(`hosts: ${field("mode")} must be shared for gateway flows (dedicated NICs need none)`);
    const create = {
        bridge: vars.bridge,
        nic: vars.nic,
        patch_port: checked(field("uplinkPort"), localnetPatchPort(checked(field("uplinkPort"), gateway.uplinkPort, "ovnName")), "ovnName"),
        ct_zone: checkedInt("GATEWAY_CT_ZONE", GATEWAY_CT_ZONE, 1, 65535),
        wait_seconds: checkedInt("PATCH_PORT_WAIT_SECONDS", PATCH_PORT_WAIT_SECONDS, 1, 3600),
    };
    // OpenFlow rules are not in OVS's database: the boot entry installs them again (./boot.ts).
    return {
        create: bashScript(create, [...BOOT_BODIES, "gateway-flows", "gateway-flows-create"]),
        delete: bashScript({ bridge: vars.bridge }, [...BOOT_BODIES, "gateway-flows-delete"]),
    };
}
