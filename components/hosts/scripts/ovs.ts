// Open vSwitch daemons on every host (ovsdb-server + ovs-vswitchd), with or without systemd.
// No delete: Open vSwitch may carry the host's own traffic (a shared gateway NIC), and OVN's
// resources are undone by their own scripts; stopping it on destroy gains nothing. So it needs no
// command of its own: a chassis starts it in its first command (OvsStart before that one's bodies).
import type { HostModel } from "../../model/types";
import { checked } from "../../values";
import { bashScript, type HostScript, type ScriptVars } from "./shell";

export type OvsHost = Pick<HostModel, "name" | "os" | "datapathType">;

/** Open vSwitch's start as the first body of a command: its variables and body. */
export interface OvsStart {
    vars: ScriptVars;
    bodies: string[];
}

export function ovsStart(host: OvsHost): OvsStart {
    checked("host.name", host.name, "nodeName");
    const os = checked(`hosts[${host.name}].os`, host.os, "osFamily");
    const vars = {
        ovs_unit: os === "debian" ? "openvswitch-switch" : "openvswitch",
        datapath_type: checked(`hosts[${host.name}].datapathType`, host.datapathType, "datapathType"),
    };
    return { vars, bodies: ["ovs-start"] };
}

/** A command that only starts Open vSwitch (a central that is no chassis). */
export function ovsStartScript(host: OvsHost): HostScript {
    const { vars, bodies } = ovsStart(host);
    return { create: bashScript(vars, bodies) };
}

/** `vars` and `bodies` of a command that starts Open vSwitch first when `start` is given. */
export function afterOvsStart(start: OvsStart | undefined, vars: ScriptVars, bodies: string[]): [ScriptVars, string[]] {
    if (!start) return [vars, bodies];
    for (const [name, value] of Object.entries(start.vars))
        if (name in vars && vars[name] !== value)
            throw new Error(`hosts: ${name} is ${vars[name]} for the command but ${value} for Open vSwitch`);
    return [{ ...start.vars, ...vars }, [...start.bodies, ...bodies]];
}
