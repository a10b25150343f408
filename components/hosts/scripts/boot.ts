// The boot entry: what brings the host network state the project configured (a NIC's addresses
// and routes on its OVS bridge, the nftables filter of a userspace-datapath NIC, management port
// addresses and routes, a shared gateway bridge's OpenFlow rules, a VTEP gateway's daemons) back after a reboot, without Pulumi. Open vSwitch recreates its bridges
// and ports from its database; this kernel state around them is lost, and without it a host
// whose NIC moved onto a bridge is unreachable. Each component records its piece in
// HOST_NETWORK_DIR; the boot program re-applies them all once Open vSwitch runs.
import { BRIDGE_OWNER_KEY } from "../../model/names";
import { bashProgram, type ScriptVars } from "./bashText";

/**
 * One file per component ("key value" lines, 0600). Beside Open vSwitch's database, which holds
 * the bridges and ports the pieces describe: removing that configuration removes both together.
 */
export const HOST_NETWORK_DIR = "/etc/openvswitch/host-network.d";

/** The boot entry's name: its program, systemd unit (`.service`) and LSB init script. */
export const BOOT_ENTRY = "ovn-kubernetes-as-code-host-network";

/** The boot program's path; the unit and the init script run it with `start`. */
export const BOOT_PROGRAM_PATH = `/usr/local/sbin/${BOOT_ENTRY}`;

/** Piece names: one per NIC move, per management port and per shared gateway bridge's flows. */
export const nicPiece = (nic: string): string => `${HOST_NETWORK_DIR}/nic-${nic}.conf`;
export const mgmtPiece = (mgmtIf: string): string => `${HOST_NETWORK_DIR}/mgmt-${mgmtIf}.conf`;
export const flowsPiece = (bridge: string): string => `${HOST_NETWORK_DIR}/flows-${bridge}.conf`;

/**
 * How long the boot program's background waiter waits for ovn-controller (started after the
 * boot entry) to add a gateway bridge's patch port before it installs the flows.
 */
export const BOOT_FLOWS_WAIT_SECONDS = 600;

/** Where that waiter writes what it did. */
export const BOOT_FLOWS_LOG = `/var/log/${BOOT_ENTRY}.log`;

/** The boot program's text (constant: it holds no model value, only the project's own names). */
export function bootProgram(): string {
    return bashProgram(
        `${BOOT_ENTRY}: the host network state after Open vSwitch starts`,
        {
            boot_dir: HOST_NETWORK_DIR,
            owner_key: BRIDGE_OWNER_KEY,
            boot_program_path: BOOT_PROGRAM_PATH,
            flows_wait_seconds: String(BOOT_FLOWS_WAIT_SECONDS),
            flows_log: BOOT_FLOWS_LOG,
        },
        ["common", "ip-move", "boot-pieces", "boot-nic", "boot-mgmt-port", "gateway-flows", "vtep-daemons", "boot-apply"],
    );
}

/** The boot program's file in the script bundle (./bundle), from which the boot entry installs it. */
export const BOOT_PROGRAM_FILE = "boot-program";

/** The names the scripts that record or remove a piece and install or remove the boot entry read: constants of the bundle (./bundle). */
export function bootVars(): ScriptVars {
    return { boot_dir: HOST_NETWORK_DIR, boot_entry: BOOT_ENTRY, boot_program_path: BOOT_PROGRAM_PATH };
}

/** The bodies those scripts include. */
export const BOOT_BODIES = ["boot-pieces", "boot-entry"] as const;
