// What both topology writers get from the cluster component: the model, the hosts' connections,
// and the host components every topology builds on.
import type * as pulumi from "@pulumi/pulumi";
import type { Central, Chassis, HostConnection } from "../hosts";
import type { ClusterModel, HostModel } from "../model/types";
import type { NbConnection } from "../nb/kinds/common";
import type { HostKeyCheck } from "../ssh/hostKeyCheck";

export interface TopologyContext {
    /** The cluster component's name: children are named `<name>-…`. */
    name: string;
    parent: pulumi.ComponentResource;
    model: ClusterModel;
    /** `<project>/<stack>`: the pulumi-owner tag of NB rows. */
    owner: string;
    connection(host: string): HostConnection;
    /** Chassis by host name. */
    chassis: ReadonlyMap<string, Chassis>;
    central: Central;
    hostKeys: ReadonlyMap<string, HostKeyCheck>;
    /** NB on every central; the SSH key is named by its stack config key, never carried. */
    nb: NbConnection;
}

export const hostOf = (model: ClusterModel, name: string): HostModel => model.hosts.find((h) => h.name === name)!;
export const centralHostOf = (model: ClusterModel): HostModel => model.hosts.find((h) => h.isCentral)!;
export const centralHostsOf = (model: ClusterModel): HostModel[] => model.hosts.filter((h) => h.isCentral);
