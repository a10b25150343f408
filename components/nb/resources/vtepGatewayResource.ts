// VtepGateway: the NB rows of one VTEP gateway (a type=vtep port on each logical switch its
// bindings join) as one Pulumi resource.
import * as pulumi from "@pulumi/pulumi";
import type { VtepModel } from "../../model/types";
import { vtepGatewayKind, type VtepGatewayNb } from "../kinds/vtepGateway";
import { NB_KINDS } from "../kinds";
import { nbProvider } from "./nbProvider";
import { NbResource, type NbResourceArgs } from "./nbResource";

export interface VtepGatewayArgs extends NbResourceArgs {
    /** The model's VTEP (host-side fields such as ports and VLANs are dropped). */
    vtep: pulumi.Input<VtepModel | VtepGatewayNb>;
}

// The kind's provider, registered once, at module load.
const provider = nbProvider(NB_KINDS.VtepGateway);

export class VtepGateway extends NbResource {
    declare readonly vtep: pulumi.Output<VtepGatewayNb>;

    constructor(name: string, args: VtepGatewayArgs, opts?: pulumi.CustomResourceOptions) {
        super(
            provider,
            name,
            args,
            { vtep: pulumi.output(args.vtep).apply((vtep) => vtepGatewayKind.normalize({ vtep }).vtep as VtepGatewayNb) },
            opts,
        );
    }
}
