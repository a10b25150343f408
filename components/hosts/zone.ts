// Zone (interconnect): one node's own OVN databases and ovn-northd, reached only on the host.
// Open vSwitch and ovn-controller are the node's Chassis, as on any chassis. With OVN from the
// image, the node's ovnkube-node pod runs them, and this part only undoes their database files.
import type { remote } from "@pulumi/command";
import type { OsFamily } from "../config/types";
import type { OvnSource } from "../config/ovnSource";
import { hostCommand, type HostConnection } from "./command";
import { Part, type PartOptions } from "./part";
import { zoneScript } from "./scripts/zoneScript";

export interface ZoneArgs {
    /** The zone's name: its node's. */
    zone: string;
    connection: HostConnection;
    os?: OsFamily;
    /** Where the zone's OVN runs: host daemons (packages, the default) or the node's ovnkube-node pod (image). */
    source?: OvnSource;
}

export class Zone {
    readonly databases: remote.Command;

    constructor(name: string, args: ZoneArgs, opts: PartOptions) {
        const part = new Part("ovn-kubernetes:hosts:Zone", name, opts);
        this.databases = hostCommand(part, `${name}-databases`, zoneScript(args.zone, args.os ?? "debian", args.source), {
            connection: args.connection,
        });
    }
}
