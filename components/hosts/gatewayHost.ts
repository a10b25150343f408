// GatewayHost: the gateway NIC on its OVS bridge (shared: host addresses move to the bridge;
// dedicated: the NIC leaves the host stack). Outputs the NIC's MAC for the gateway router.
import * as pulumi from "@pulumi/pulumi";
import type { remote } from "@pulumi/command";
import type { DatapathType } from "../config/types";
import type { GatewayModel } from "../model/types";
import { hostCommand, type HostConnection } from "./command";
import { gatewayBridgeScript, parseNicMac } from "./scripts/gateway";

export interface GatewayHostArgs {
    gateway: GatewayModel;
    connection: HostConnection;
    /** The host's datapath type (HostModel.datapathType): the bridge must match br-int's. */
    datapathType: DatapathType;
}

export class GatewayHost extends pulumi.ComponentResource {
    readonly bridge: remote.Command;
    /** The NIC's MAC: the gateway router's external port (rtoe-GR_<node>) must carry it. */
    readonly macAddress: pulumi.Output<string>;

    constructor(name: string, args: GatewayHostArgs, opts?: pulumi.ComponentResourceOptions) {
        super("ovn-kubernetes:hosts:GatewayHost", name, {}, opts);
        const { gateway } = args;
        this.bridge = hostCommand(
            this,
            `${name}-bridge`,
            gatewayBridgeScript(gateway, args.datapathType),
            // Another NIC, bridge, mode or datapath is another setup: undo the old one completely
            // first (the NIC cannot be in two bridges, its addresses not in two places).
            { connection: args.connection, triggers: [gateway.mode, gateway.interface, gateway.bridge, args.datapathType] },
            { deleteBeforeReplace: true },
        );
        this.macAddress = this.bridge.stdout.apply(parseNicMac);
        this.registerOutputs({ bridge: this.bridge, macAddress: this.macAddress });
    }
}
