// What every step of the cluster component shares: the component, the validated model, the owner
// of its NB rows and how its providers reach each node's Northbound database.
import * as pulumi from "@pulumi/pulumi";
import type { ClusterModel, HostModel } from "../model/types";
import type { NbConnection } from "../nb/kinds/common";
import { centralHostOf, centralHostsOf, hostOf } from "../topology/context";
import type { OvnKubernetesClusterArgs } from "./clusterArgs";
import { nbConnection } from "./connections";
import { sshPrivateKeyConfig } from "./readConfig";

export interface ClusterScope {
    /** The component's name: children are named `<name>-…`. */
    name: string;
    parent: pulumi.ComponentResource;
    model: ClusterModel;
    /** The pulumi-owner tag of NB rows: `<project>/<stack>` unless the arguments name another. */
    owner: string;
    /** The providers' SSH key, named by its config key: their state holds no key. */
    nbKey: { privateKeyConfig: string };
    /** The (first) central's host, when the stack has a central. */
    centralHost?: HostModel;
    /** Interconnect: each node's own NB, on its host; else the central's (every member's). */
    nbOf(node: string): NbConnection;
}

export function clusterScope(
    name: string,
    parent: pulumi.ComponentResource,
    args: OvnKubernetesClusterArgs,
    model: ClusterModel,
): ClusterScope {
    const centralHost = model.central ? centralHostOf(model) : undefined;
    const nbKey = { privateKeyConfig: args.sshPrivateKeyConfig ?? sshPrivateKeyConfig() };
    const owner = args.owner ?? `${pulumi.getProject()}/${pulumi.getStack()}`;
    const nbOf = (node: string) =>
        centralHost ? nbConnection(centralHost, nbKey, centralHostsOf(model)) : nbConnection(hostOf(model, node), nbKey);
    return { name, parent, model, owner, nbKey, centralHost, nbOf };
}
