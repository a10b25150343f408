// ClusterRouter: the cluster-wide NB rows (ovn_cluster_router, join, rtoj/jtor, cluster LBs) as
// one Pulumi resource applied in one transaction. See ./kinds/clusterRouter for the rows.
import * as pulumi from "@pulumi/pulumi";
import type { ClusterRouterModel } from "../../model/types";
import { clusterRouterKind, type ClusterRouterNb } from "../kinds/clusterRouter";
import { NB_KINDS } from "../kinds";
import { nbProvider } from "./nbProvider";
import { NbResource, type NbResourceArgs } from "./nbResource";

export interface ClusterRouterArgs extends NbResourceArgs {
    /** The model's cluster router (fields NB does not need are dropped). */
    router: pulumi.Input<ClusterRouterModel | ClusterRouterNb>;
}

// The kind's provider, registered once, at module load.
const provider = nbProvider(NB_KINDS.ClusterRouter);

export class ClusterRouter extends NbResource {
    declare readonly router: pulumi.Output<ClusterRouterNb>;

    constructor(name: string, args: ClusterRouterArgs, opts?: pulumi.CustomResourceOptions) {
        super(
            provider,
            name,
            args,
            { router: pulumi.output(args.router).apply((router) => clusterRouterKind.normalize({ router }).router as ClusterRouterNb) },
            opts,
        );
    }
}
