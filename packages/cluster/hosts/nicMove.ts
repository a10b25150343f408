// A NIC moved onto its OVS bridge (a gateway's, or the userspace tunnel NIC's) in two commands:
// the move, and then its confirmation from a NEW SSH login to the same address, which can only
// succeed over the moved path. The move undoes itself unless that confirmation comes in time
// (scripts/bash/nic-move.sh), so a move that cuts the host off heals without anyone logging in.
// Before the move, a check refuses at preview a NIC the distribution still configures (./nicHandoverCheck).
import * as pulumi from "@pulumi/pulumi";
import type { remote } from "@pulumi/command";
import type { DatapathType } from "../config/types";
import { hostCommand, type HostConnection } from "./command";
import { NicHandoverCheck } from "./nicHandoverCheck";
import { nicMoveConfirmScript, nicMoveScript, parseConfirmToken, parseNicMac, type NicBridge } from "./scripts/nicMoveScript";

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
 * `privateKeyConfig`: the SSH key's stack config key, for the handover check (./nicHandoverCheck).
 * `triggers`: what makes another setup (another NIC, bridge, mode or datapath), replaced delete-first (./command.ts).
 */
export function nicMoveCommands(
    parent: pulumi.Resource,
    name: string,
    nic: NicBridge,
    datapathType: DatapathType,
    connection: HostConnection,
    triggers: unknown[],
    dependsOn: pulumi.Resource[] = [],
    privateKeyConfig?: string,
): NicMove {
    const handover = new NicHandoverCheck(`${name}-handover`, { connection, nic, privateKeyConfig }, { parent, dependsOn });
    const move = hostCommand(
        parent,
        name,
        nicMoveScript(nic, datapathType, name),
        { connection, triggers },
        { dependsOn: [handover, ...dependsOn] },
    );
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
