// ClusterRouter: the cluster-wide NB rows (ovn_cluster_router, join, rtoj/jtor, cluster LBs) as
// one Pulumi resource applied in one transaction. See ./groups/clusterRouter for the rows.
import * as pulumi from "@pulumi/pulumi";
import type { ClusterRouterModel } from "../model/types";
import { pickClusterRouter, type ClusterRouterNb } from "./groups/clusterRouter";
import { clusterRouterKind } from "./kinds/clusterRouter";
import { nbProvider } from "./provider";
import { NbResource, type NbResourceArgs } from "./resource";

export interface ClusterRouterArgs extends NbResourceArgs {
    /** The model's cluster router (fields NB does not need are dropped). */
    router: pulumi.Input<ClusterRouterModel | ClusterRouterNb>;
}

// One provider object for all instances: the SDK serializes a provider once per object.
const provider = nbProvider(clusterRouterKind);

export class ClusterRouter extends NbResource {
    declare readonly router: pulumi.Output<ClusterRouterNb>;

    constructor(name: string, args: ClusterRouterArgs, opts?: pulumi.CustomResourceOptions) {
        super(provider, clusterRouterKind.type, name, args, { router: pulumi.output(args.router).apply(pickClusterRouter) }, opts);
    }
}
