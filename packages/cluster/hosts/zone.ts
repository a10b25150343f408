// Zone (interconnect): one node's own OVN databases and ovn-northd, reached only on the host.
// Open vSwitch and ovn-controller are the node's Chassis, as on any chassis.
import * as pulumi from "@pulumi/pulumi";
import type { remote } from "@pulumi/command";
import type { OsFamily } from "../config/types";
import { hostCommand, type HostConnection } from "./command";
import { zoneScript } from "./scripts/zoneScript";

export interface ZoneArgs {
    /** The zone's name: its node's. */
    zone: string;
    connection: HostConnection;
    os?: OsFamily;
}

export class Zone extends pulumi.ComponentResource {
    readonly databases: remote.Command;

    constructor(name: string, args: ZoneArgs, opts?: pulumi.ComponentResourceOptions) {
        super("ovn-kubernetes:hosts:Zone", name, {}, opts);
        this.databases = hostCommand(this, `${name}-databases`, zoneScript(args.zone, args.os ?? "debian"), { connection: args.connection });
        this.registerOutputs({ databases: this.databases });
    }
}
