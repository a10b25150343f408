// Gateway: what gateway-init did for one node, in the order the machines need it: the NIC onto
// its OVS bridge (its MAC is read there), then the NB gateway router bound to the node's chassis
// and carrying that MAC, then, on a shared NIC, the conntrack flows that let host and cluster
// share it (they need the localnet patch port, which exists once the router is bound).
import * as pulumi from "@pulumi/pulumi";
import type { DatapathType } from "../config/types";
import { GatewayFlows, GatewayHost, type HostConnection } from "../hosts";
import type { GatewayModel } from "../model/types";
import { GatewayRouter } from "../nb/resources/gatewayRouterResource";
import type { NbResourceArgs } from "../nb/resources/nbResource";

export interface GatewayArgs extends Pick<NbResourceArgs, "nb" | "owner"> {
    gateway: GatewayModel;
    datapathType: DatapathType;
    /** SSH connection to the gateway node (secret). */
    connection: HostConnection;
    /** system-id of the node's chassis. */
    systemId: pulumi.Input<string>;
}

export class Gateway extends pulumi.ComponentResource {
    readonly host: GatewayHost;
    readonly router: GatewayRouter;
    readonly flows?: GatewayFlows;
    readonly macAddress: pulumi.Output<string>;

    constructor(name: string, args: GatewayArgs, opts?: pulumi.ComponentResourceOptions) {
        super("ovn-kubernetes:network:Gateway", name, {}, opts);
        const { gateway, connection } = args;
        this.host = new GatewayHost(`${name}-host`, { gateway, connection, datapathType: args.datapathType }, { parent: this });
        this.router = new GatewayRouter(
            `${name}-router`,
            { nb: args.nb, owner: args.owner, gateway, systemId: args.systemId, macAddress: this.host.macAddress },
            { parent: this },
        );
        if (gateway.mode === "shared")
            this.flows = new GatewayFlows(`${name}-flows`, { gateway, connection }, { parent: this, dependsOn: [this.router] });
        this.macAddress = this.host.macAddress;
        this.registerOutputs({ macAddress: this.macAddress });
    }
}
