// The host side of a gateway: the NIC on its OVS bridge (shared or dedicated) and, in shared mode,
// the conntrack flows that let the host and the gateway router share that NIC.
import { INTEGRATION_BRIDGE } from "../../model/names";
import type { DatapathType } from "../../config/types";
import type { GatewayModel } from "../../model/types";
import { PATTERNS, checked, checkedInt } from "./patterns";
import { bashScript, lastStdoutLine, type HostScript } from "./shell";
import { BOOT_BODIES, BOOT_ENTRY, HOST_NETWORK_DIR, bootVars } from "./boot";

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

export { INTEGRATION_BRIDGE };

/** Where host scripts keep runtime state (a tmpfs: pending NIC moves, test hooks). */
export const HOST_STATE_DIR = "/run/ovn-kubernetes-as-code";

/** external_ids key on every OVS bridge the project creates; its value names the NIC move that owns it. */
export const BRIDGE_OWNER_KEY = "ovn-kubernetes-as-code:owner";

/** The owner tag of the bridge a node's NIC moves onto. */
export const bridgeOwner = (node: string, nic: string): string => `${node}/${nic}`;

/**
 * external_ids key naming the move resource that holds the bridge now. Two resources can move the
 * same NIC onto the same bridge (a node's userspace tunnel bridge, and its shared gateway once the
 * node becomes a gateway): when one takes over from the other in an `up`, the new one's create
 * runs first, finds the NIC in place and writes its claim; the removed one's delete, which runs
 * last, then sees another claim and leaves the bridge alone instead of undoing the new setup.
 */
export const BRIDGE_CLAIM_KEY = "ovn-kubernetes-as-code:claim";

/**
 * How long a NIC move waits for a new SSH login to confirm it before undoing itself. The confirm
 * command runs right after the move (a dependent resource), so this only bounds a lost host.
 */
export const MOVE_CONFIRM_SECONDS = 60;

/** Test hooks the NIC move honours (see bash/nic-move.sh): files in HOST_STATE_DIR. */
export const MOVE_TEST_HOOKS = { failAt: `${HOST_STATE_DIR}/fail-at`, confirmSeconds: `${HOST_STATE_DIR}/confirm-seconds` } as const;

/** Steps of a NIC move, in order, as its errors and the fail-at hook name them. */
export const MOVE_STEPS = ["bridge-add", "ingress-filter", "port-add", "address-move", "route-move", "address-release", "address-flush", "boot-record", "confirm-arm"] as const;

/**
 * The token a NIC move prints ("confirm-token <uuid>", or "none" when the run changed nothing)
 * for its confirmation. Output of a move made before confirmations existed has none: nothing is
 * armed there either.
 */
export function parseConfirmToken(stdout: string): string {
    const line = stdout.split("\n").map((l) => l.trim()).find((l) => l.startsWith("confirm-token "));
    if (line === undefined) return "none";
    const token = line.slice("confirm-token ".length);
    if (token !== "none" && !PATTERNS.uuid.re.test(token)) throw new Error(`hosts: gateway bridge script stdout: bad confirm token ${JSON.stringify(token)}`);
    return token;
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
    if (bridge === INTEGRATION_BRIDGE || nic === INTEGRATION_BRIDGE) throw new Error(`hosts: ${field(bridge === INTEGRATION_BRIDGE ? "bridge" : "interface")} must not be ${INTEGRATION_BRIDGE}, OVN's integration bridge`);
    return { node, field, vars: { mode: gateway.mode, nic, bridge } };
}

/** The move's variables, the same for create, delete and confirm (bash/nic-move.sh). */
function moveVars(gateway: NicBridge, moveResource: string) {
    const { node, field, vars } = gatewayVars(gateway);
    const common = {
        ...vars,
        owner: bridgeOwner(node, vars.nic),
        owner_key: BRIDGE_OWNER_KEY,
        claim: checked(field("move resource"), moveResource, "ovnName"),
        claim_key: BRIDGE_CLAIM_KEY,
        state_dir: HOST_STATE_DIR,
        confirm_seconds: checkedInt("MOVE_CONFIRM_SECONDS", MOVE_CONFIRM_SECONDS, 1, 600),
        boot_dir: HOST_NETWORK_DIR,
    };
    return { node, field, vars, common };
}

/** The name a move's claim takes when the caller names no resource (host-level tests). */
export const defaultMoveResource = (gateway: NicBridge): string => `${gateway.node}-${gateway.interface}-move`;

/** `moveResource`: the resource running the move, its claim on the bridge (BRIDGE_CLAIM_KEY). */
export function gatewayBridgeScript(gateway: NicBridge, datapathType: DatapathType, moveResource = defaultMoveResource(gateway)): HostScript {
    const { node, field, vars, common } = moveVars(gateway, moveResource);
    const create = { ...common, datapath_type: checked(field("datapathType"), datapathType, "datapathType"), boot_entry: BOOT_ENTRY };
    const what = `gateway ${vars.mode} ${vars.nic} on ${vars.bridge} of ${node}`;
    const moveBodies = ["common", "ip-move", "boot-pieces", "boot-nic", "nic-move-state", "nic-move"];
    return {
        create: bashScript(what, create, [...moveBodies, "boot-distro-config", "gateway-bridge-create"]),
        delete: bashScript(`${what}: undo`, { ...common, ...bootVars() }, [...moveBodies, "boot-entry", "gateway-bridge-delete"]),
    };
}

/**
 * The confirmation of a NIC move: run in a NEW SSH login after the move's create (a separate
 * command that takes the move's token), it keeps the move; without it the move undoes itself.
 * `moveResource` names the move's resource in the error that says how to retry.
 */
export function gatewayConfirmScript(gateway: NicBridge, token: string, moveResource: string): string {
    const { node, field, vars, common } = moveVars(gateway, moveResource);
    const confirm = {
        nic: common.nic,
        bridge: common.bridge,
        state_dir: common.state_dir,
        token: token === "none" ? token : checked(field("confirm token"), token, "uuid"),
        move_resource: common.claim,
        ...bootVars(),
    };
    return bashScript(`confirm the move of ${vars.nic} onto ${vars.bridge} of ${node}`, confirm, ["common", "nic-move-state", ...BOOT_BODIES, "gateway-confirm"]);
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
    // OpenFlow rules are not in OVS's database: the boot entry installs them again (./boot.ts).
    return {
        create: bashScript(`gateway flows on ${vars.bridge} of ${node}`, { ...create, ...bootVars() }, ["common", ...BOOT_BODIES, "gateway-flows", "gateway-flows-create"]),
        delete: bashScript(`gateway flows on ${vars.bridge} of ${node}: back to NORMAL`, { bridge: vars.bridge, ...bootVars() }, ["common", ...BOOT_BODIES, "gateway-flows-delete"]),
    };
}
