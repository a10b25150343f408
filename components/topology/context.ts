// What both topology writers get from the cluster component: the model, the hosts' connections,
// and the host components every topology builds on.
import type * as pulumi from "@pulumi/pulumi";
import type { Chassis, HostConnection, ScriptBundle } from "../hosts";
import type { ClusterModel, HostModel } from "../model/types";
import type { NbConnection } from "../nb/kinds/common";

export interface TopologyContext {
    /** The cluster component's name: children are named `<name>-…`. */
    name: string;
    parent: pulumi.ComponentResource;
    model: ClusterModel;
    /** `<project>/<stack>`: the pulumi-owner tag of NB rows. */
    owner: string;
    connection(host: string): HostConnection;
    /** The SSH key's stack config key, which the package's providers log in with. */
    privateKeyConfig: string;
    /** Chassis by host name. */
    chassis: ReadonlyMap<string, Chassis>;
    /** The OVN databases every topology waits for: the central, or every zone (interconnect). */
    databases: pulumi.Resource[];
    /** The databases a host's chassis uses: the central, or (interconnect) its own zone. */
    databasesOf(host: string): pulumi.Resource;
    /** Each host's gate and scripts (../hosts/scriptBundle), by host name. */
    bundles: ReadonlyMap<string, ScriptBundle>;
    /**
     * The NB holding a node's rows: the central's (every member's), or with interconnect the node's
     * own zone. The SSH key is named by its stack config key, never carried.
     */
    nb(node: string): NbConnection;
}

export const hostOf = (model: ClusterModel, name: string): HostModel => model.hosts.find((h) => h.name === name)!;
export const centralHostOf = (model: ClusterModel): HostModel => model.hosts.find((h) => h.isCentral)!;
export const centralHostsOf = (model: ClusterModel): HostModel[] => model.hosts.filter((h) => h.isCentral);
