// A NIC moved onto an OVS bridge, as one transaction undone at any failed step and kept only when
// a new SSH login confirms it (bash/nic-move.sh). Used for a gateway's NIC (./gateway.ts) and for
// the userspace datapath's tunnel NIC (../chassis.ts): the move knows NICs and bridges, not why.
import { BRIDGE_OWNER_KEY, INTEGRATION_BRIDGE } from "../../model/names";
import { GatewayMode, valuesOf, type DatapathType } from "../../config/types";
import { PATTERNS, checked, checkedInt } from "../../values";
import { afterOvsStart, type OvsStart } from "./ovs";
import { bashProgram, bashScript, lastStdoutLine, type HostScript } from "./shell";
import { BOOT_BODIES, BOOT_ENTRY } from "./boot";

export interface NicBridge {
    /** The host (node name) whose NIC moves. */
    node: string;
    interface: string;
    bridge: string;
    /**
     * `shared`: the host's addresses and routes follow the NIC onto the bridge (a shared gateway, the
     * tunnel NIC); `dedicated`: the NIC leaves the host's IP stack (a dedicated gateway). The same
     * words reach the bash scripts and the hosts' boot records.
     */
    mode: GatewayMode;
    /** What the NIC is for: names it in errors and in the handover check. */
    role: "gateway" | "tunnel";
}

/** The model field a NIC comes from, for errors. */
const fieldOf = (nic: NicBridge): string => (nic.role === "gateway" ? `gateways[${nic.node}]` : `hosts[${nic.node}].chassis.tunnelBridge`);

/** Where host scripts keep runtime state (a tmpfs: pending NIC moves, test hooks). */
export const HOST_STATE_DIR = "/run/ovn-kubernetes-as-code";

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
export const MOVE_STEPS = [
    "bridge-add",
    "ingress-filter",
    "port-add",
    "address-move",
    "route-move",
    "address-release",
    "address-flush",
    "boot-record",
    "confirm-arm",
] as const;

/** The NIC's MAC is the last stdout line of the move. */
export function parseNicMac(stdout: string): string {
    return checked("NIC move stdout (NIC MAC)", lastStdoutLine(stdout), "mac");
}

/**
 * The token a NIC move prints ("confirm-token <uuid>", or "none" when the run changed nothing)
 * for its confirmation. Output of a move made before confirmations existed has none: nothing is
 * armed there either.
 */
export function parseConfirmToken(stdout: string): string {
    const line = stdout
        .split("\n")
        .map((l) => l.trim())
        .find((l) => l.startsWith("confirm-token "));
    if (line === undefined) return "none";
    const token = line.slice("confirm-token ".length);
    if (token !== "none" && !PATTERNS.uuid.re.test(token))
        throw new Error(`hosts: NIC move stdout: bad confirm token ${JSON.stringify(token)}`);
    return token;
}

/** The NIC, bridge and mode, checked. */
export function nicVars(nic: NicBridge) {
    const node = checked(`${nic.role}.node`, nic.node, "nodeName");
    const field = (key: string) => `${fieldOf(nic)}.${key}`;
    if (!valuesOf(GatewayMode).includes(nic.mode))
        throw new Error(`hosts: ${field("mode")} must be one of ${valuesOf(GatewayMode).join(", ")}, got ${JSON.stringify(nic.mode)}`);
    const name = checked(field("interface"), nic.interface, "ifname");
    const bridge = checked(field("bridge"), nic.bridge, "ifname");
    if (name === bridge) throw new Error(`hosts: ${field("bridge")} must differ from ${field("interface")} (${name})`);
    if (bridge === INTEGRATION_BRIDGE || name === INTEGRATION_BRIDGE)
        throw new Error(
            `hosts: ${field(bridge === INTEGRATION_BRIDGE ? "bridge" : "interface")} must not be ${INTEGRATION_BRIDGE}, OVN's integration bridge`,
        );
    return { node, field, vars: { mode: nic.mode, nic: name, bridge } };
}

/** The move's variables, the same for create, delete and confirm (bash/nic-move.sh). */
function moveVars(nic: NicBridge, moveResource: string) {
    const { node, field, vars } = nicVars(nic);
    const common = {
        ...vars,
        owner: bridgeOwner(node, vars.nic),
        owner_key: BRIDGE_OWNER_KEY,
        claim: checked(field("move resource"), moveResource, "ovnName"),
        claim_key: BRIDGE_CLAIM_KEY,
        state_dir: HOST_STATE_DIR,
        confirm_seconds: checkedInt("MOVE_CONFIRM_SECONDS", MOVE_CONFIRM_SECONDS, 1, 600),
    };
    return { node, field, vars, common };
}

/** The name a move's claim takes when the caller names no resource (host-level tests). */
export const defaultMoveResource = (nic: Pick<NicBridge, "node" | "interface">): string => `${nic.node}-${nic.interface}-move`;

/**
 * Moves the NIC onto its bridge (create) and back (delete). `moveResource`: the resource running
 * the move, its claim on the bridge (BRIDGE_CLAIM_KEY). `ovs`: Open vSwitch is started first, in
 * the same create (a chassis' tunnel NIC, moved by its first command).
 */
export function nicMoveScript(
    nic: NicBridge,
    datapathType: DatapathType,
    moveResource = defaultMoveResource(nic),
    ovs?: OvsStart,
): HostScript {
    const { node, field, vars, common } = moveVars(nic, moveResource);
    const create = { ...common, datapath_type: checked(field("datapathType"), datapathType, "datapathType") };
    const moveBodies = ["ip-move", "boot-pieces", "boot-nic", "nic-move-state", "nic-move"];
    return {
        create: bashScript(...afterOvsStart(ovs, create, [...moveBodies, "boot-distro-config", "gateway-bridge-create"])),
        delete: bashScript(common, [...moveBodies, "boot-entry", "gateway-bridge-delete"]),
    };
}

/**
 * Read-only: fails, naming the file and the fix, while the distribution's own network
 * configuration would configure the NIC at boot (bash/boot-distro-config.sh). The move's create
 * refuses the same; this runs at every preview, before anything is changed (../nicHandoverCheck).
 * A whole program, not a bundle command: a preview runs it before the up that installs a new
 * package's bundle, and it is not kept in state.
 */
export function nicHandoverScript(nic: NicBridge): string {
    const { node, vars } = nicVars(nic);
    return bashProgram(
        `${nic.role} ${vars.nic} of ${node}: handed over by the distribution's network configuration?`,
        { nic: vars.nic, bridge: vars.bridge, boot_entry: BOOT_ENTRY },
        ["common", "boot-distro-config", "nic-handover-check"],
    );
}

/**
 * The confirmation of a NIC move: run in a NEW SSH login after the move's create (a separate
 * command that takes the move's token), it keeps the move; without it the move undoes itself.
 * `moveResource` names the move's resource in the error that says how to retry.
 */
export function nicMoveConfirmScript(nic: NicBridge, token: string, moveResource: string): string {
    const { node, field, vars, common } = moveVars(nic, moveResource);
    const confirm = {
        nic: common.nic,
        bridge: common.bridge,
        state_dir: common.state_dir,
        token: token === "none" ? token : checked(field("confirm token"), token, "uuid"),
        move_resource: common.claim,
    };
    return bashScript(confirm, ["nic-move-state", ...BOOT_BODIES, "gateway-confirm"]);
}
