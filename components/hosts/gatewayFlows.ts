// GatewayFlows: the conntrack flows on a shared gateway bridge that let the host and the OVN
// gateway router share one NIC. Create it after the gateway router exists (dependsOn): the
// script waits for ovn-controller to bind the localnet port and add its patch port.
import * as pulumi from "@pulumi/pulumi";
import type { remote } from "@pulumi/command";
import type { GatewayModel } from "../model/types";
import { hostCommand, type HostConnection } from "./command";
import { gatewayFlowsScript } from "./scripts/gatewayScript";

export interface GatewayFlowsArgs {
    gateway: GatewayModel;
    connection: HostConnection;
}

export class GatewayFlows extends pulumi.ComponentResource {
    readonly flows: remote.Command;

    constructor(name: string, args: GatewayFlowsArgs, opts?: pulumi.ComponentResourceOptions) {
        super("ovn-kubernetes:hosts:GatewayFlows", name, {}, opts);
        // Another bridge, NIC or patch port is another set of flows (and boot piece): replaced
        // delete-first, so the old delete puts its own bridge back to NORMAL and forgets its piece.
        const { bridge, interface: nic, uplinkPort } = args.gateway;
        this.flows = hostCommand(this, `${name}-flows`, gatewayFlowsScript(args.gateway), {
            connection: args.connection,
            triggers: [bridge, nic, uplinkPort],
        });
        this.registerOutputs({ flows: this.flows });
    }
}
