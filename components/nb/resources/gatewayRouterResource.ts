// GatewayRouter: the NB rows of one gateway (GR_<node>, its join and external port pairs,
// ext_<node> with the localnet uplink, SNAT, routes on GR_<node> and on the cluster router, its
// LBs) as one Pulumi resource.
import * as pulumi from "@pulumi/pulumi";
import type { GatewayModel } from "../../model/types";
import { gatewayRouterKind, type GatewayRouterNb } from "../kinds/gatewayRouter";
import { NB_KINDS } from "../kinds";
import { nbProvider } from "./nbProvider";
import { NbResource, type NbResourceArgs } from "./nbResource";

export interface GatewayRouterArgs extends NbResourceArgs {
    /** The model's gateway (host-side fields such as mode and interface are dropped). */
    gateway: pulumi.Input<GatewayModel | GatewayRouterNb>;
    /** system-id of the node's chassis: GR_<node> is bound to it (options:chassis). */
    systemId: pulumi.Input<string>;
    /** MAC of the host NIC: rtoe-GR_<node> and etor-GR_<node> carry it. */
    macAddress: pulumi.Input<string>;
}

// The kind's provider, registered once, at module load.
const provider = nbProvider(NB_KINDS.GatewayRouter);

export class GatewayRouter extends NbResource {
    declare readonly gateway: pulumi.Output<GatewayRouterNb>;
    declare readonly systemId: pulumi.Output<string>;
    declare readonly macAddress: pulumi.Output<string>;

    constructor(name: string, args: GatewayRouterArgs, opts?: pulumi.CustomResourceOptions) {
        const own = {
            gateway: pulumi.output(args.gateway).apply((gateway) => gatewayRouterKind.normalize({ gateway }).gateway as GatewayRouterNb),
            systemId: args.systemId,
            macAddress: args.macAddress,
        };
        super(provider, name, args, own, opts);
    }
}
