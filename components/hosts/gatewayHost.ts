// GatewayHost: the gateway NIC on its OVS bridge (shared: host addresses move to the bridge;
// dedicated: the NIC leaves the host stack), confirmed by a new SSH login (./nicMove.ts).
// Outputs the NIC's MAC for the gateway router.
import * as pulumi from "@pulumi/pulumi";
import type { remote } from "@pulumi/command";
import type { DatapathType } from "../config/types";
import type { GatewayModel } from "../model/types";
import type { HostConnection } from "./command";
import { nicMoveCommands } from "./nicMove";
import { gatewayNic } from "./scripts/gatewayScript";

export interface GatewayHostArgs {
    gateway: GatewayModel;
    connection: HostConnection;
    /** The host's datapath type (HostModel.datapathType): the bridge must match br-int's. */
    datapathType: DatapathType;
}

export class GatewayHost extends pulumi.ComponentResource {
    readonly bridge: remote.Command;
    /** The new SSH login that keeps the move (without it the host undoes the move). */
    readonly confirm: remote.Command;
    /** The NIC's MAC: the gateway router's external port (rtoe-GR_<node>) must carry it. */
    readonly macAddress: pulumi.Output<string>;

    constructor(name: string, args: GatewayHostArgs, opts?: pulumi.ComponentResourceOptions) {
        super("ovn-kubernetes:hosts:GatewayHost", name, {}, opts);
        const { gateway, datapathType } = args;
        const triggers = [gateway.mode, gateway.interface, gateway.bridge, datapathType];
        const moved = nicMoveCommands(this, `${name}-bridge`, gatewayNic(gateway), datapathType, args.connection, triggers);
        this.bridge = moved.move;
        this.confirm = moved.confirm;
        this.macAddress = moved.macAddress;
        this.registerOutputs({ bridge: this.bridge, confirm: this.confirm, macAddress: this.macAddress });
    }
}
