// Zone (interconnect): one node's own OVN databases and ovn-northd, reached only on the host.
// Open vSwitch and ovn-controller are the node's Chassis, as on any chassis.
import type { remote } from "@pulumi/command";
import type { OsFamily } from "../config/types";
import { hostCommand, type HostConnection } from "./command";
import { Part, type PartOptions } from "./part";
import { zoneScript } from "./scripts/zoneScript";

export interface ZoneArgs {
    /** The zone's name: its node's. */
    zone: string;
    connection: HostConnection;
    os?: OsFamily;
}

export class Zone {
    readonly databases: remote.Command;

    constructor(name: string, args: ZoneArgs, opts: PartOptions) {
        const part = new Part("ovn-kubernetes:hosts:Zone", name, opts);
        this.databases = hostCommand(part, `${name}-databases`, zoneScript(args.zone, args.os ?? "debian"), {
            connection: args.connection,
        });
    }
}
