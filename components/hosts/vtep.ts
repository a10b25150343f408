// VtepHost: the host side of a VTEP gateway (role vtep): on the userspace datapath its tunnel NIC
// moved onto an OVS bridge first, as on a chassis; then the VTEP database, the physical switch
// with its ports and VLAN bindings, ovs-vtep and ovn-controller-vtep (./scripts/vtepScript).
// VxlanMode: NB_Global options:vxlan_mode on the central, once per stack with VTEP gateways.
import type { remote } from "@pulumi/command";
import type * as pulumi from "@pulumi/pulumi";
import type { HostModel } from "../model/types";
import { hostCommand, type HostConnection } from "./command";
import { nicMoveCommands, tunnelNic } from "./nicMove";
import { Part, type PartOptions } from "./part";
import { ovsStart } from "./scripts/ovs";
import { vtepScript } from "./scripts/vtepScript";
import { vxlanModeScript } from "./scripts/vxlanModeScript";

export interface VtepHostArgs {
    /** The VTEP's host (its `vtep` set). */
    host: HostModel;
    connection: HostConnection;
}

export class VtepHost {
    /** The VTEP's database, bridge, bindings and daemons. */
    readonly vtep: remote.Command;

    constructor(name: string, args: VtepHostArgs, opts: PartOptions) {
        const part = new Part("ovn-kubernetes:hosts:VtepHost", name, opts);
        const vtep = args.host.vtep;
        if (!vtep) throw new Error(`${name}: host ${args.host.name} is no VTEP gateway`);
        const ovs = ovsStart(args.host);
        const nic = tunnelNic(args.host);
        // Generated (and so validated) before any command exists: bad input fails the preview.
        const script = vtepScript(vtep, nic ? undefined : ovs);
        let after: pulumi.Resource[] = [];
        if (nic) {
            const triggers = [nic.interface, nic.bridge, args.host.datapathType];
            after = [
                nicMoveCommands(part, `${name}-tunnel-bridge`, nic, args.host.datapathType, args.connection, triggers, [], ovs).confirm,
            ];
        }
        // Another physical switch is another bridge and database row: the old one goes first.
        this.vtep = hostCommand(
            part,
            `${name}-vtep`,
            script,
            { connection: args.connection, triggers: [vtep.physicalSwitch] },
            { dependsOn: after },
        );
    }
}

export class VxlanMode {
    /** Its last stdout line: `vxlan_mode=false`, or `vxlan_mode=unsupported` on OVN before 24.09. */
    readonly command: remote.Command;

    constructor(name: string, args: { connection: HostConnection }, opts: PartOptions) {
        const part = new Part("ovn-kubernetes:hosts:VxlanMode", name, opts);
        this.command = hostCommand(part, `${name}-vxlan-mode`, vxlanModeScript(), { connection: args.connection });
    }
}
