// A NIC moved onto its OVS bridge (a gateway's, or the userspace tunnel NIC's) in two commands:
// the move, and then its confirmation from a NEW SSH login to the same address, which can only
// succeed over the moved path. The move undoes itself unless that confirmation comes in time
// (scripts/bash/nic-move.sh), so a move that cuts the host off heals without anyone logging in.
// Before the move, the host's script bundle refuses at preview a NIC the distribution still
// configures (./nicHandoverCheck): nicMovesOf says which NICs a host moves.
import * as pulumi from "@pulumi/pulumi";
import type { Part } from "./part";
import type { remote } from "@pulumi/command";
import { GatewayMode, type DatapathType } from "../config/types";
import type { GatewayModel, HostModel } from "../model/types";
import { hostCommand, type HostConnection } from "./command";
import { gatewayNic } from "./scripts/gatewayScript";
import { nicMoveConfirmScript, nicMoveScript, parseConfirmToken, parseNicMac, type NicBridge } from "./scripts/nicMoveScript";
import type { OvsStart } from "./scripts/ovs";

/** The userspace datapath's tunnel NIC of a host, moved onto its bridge with the host's addresses. */
export function tunnelNic(host: HostModel): NicBridge | undefined {
    const tunnel = host.chassis?.tunnelBridge ?? host.vtep?.tunnelBridge;
    return tunnel && { node: host.name, ...tunnel, mode: GatewayMode.shared, role: "tunnel" };
}

/** Every NIC a host moves onto an OVS bridge: its tunnel NIC and its gateways' NICs. */
export function nicMovesOf(host: HostModel, gateways: readonly GatewayModel[]): NicBridge[] {
    return [tunnelNic(host), ...gateways.filter((g) => g.node === host.name).map(gatewayNic)].filter(
        (n): n is NicBridge => n !== undefined,
    );
}

export interface NicMove {
    /** Moves the NIC (create) and moves it back (delete). */
    move: remote.Command;
    /** Confirms the move from a new login; depends on `move` through the token it printed. */
    confirm: remote.Command;
    /** The NIC's MAC, available once the move is confirmed. */
    macAddress: pulumi.Output<string>;
}

/**
 * The move command is named `name`, its confirmation `<name>-confirm`, both children of `parent`.
 * `triggers`: what makes another setup (another NIC, bridge, mode or datapath), replaced delete-first (./command.ts).
 */
export function nicMoveCommands(
    parent: pulumi.Resource | Part,
    name: string,
    nic: NicBridge,
    datapathType: DatapathType,
    connection: HostConnection,
    triggers: unknown[],
    dependsOn: pulumi.Resource[] = [],
    ovs?: OvsStart,
): NicMove {
    const move = hostCommand(parent, name, nicMoveScript(nic, datapathType, name, ovs), { connection, triggers }, { dependsOn });
    // Validated now, before any command exists; the token only later.
    nicMoveConfirmScript(nic, "none", name);
    const confirm = hostCommand(
        parent,
        `${name}-confirm`,
        { create: move.stdout.apply((out) => nicMoveConfirmScript(nic, parseConfirmToken(out), name)) },
        { connection },
        { dependsOn: [move] },
    );
    const macAddress = pulumi.all([move.stdout, confirm.stdout]).apply(([out]) => parseNicMac(out));
    return { move, confirm, macAddress };
}
