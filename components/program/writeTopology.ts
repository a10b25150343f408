// The per-node topology, by its writer: Pulumi mode registers the NB rows and the hosts' parts,
// ovnkube mode ovnkube in Kubernetes. Each mode's writers load only when the stack uses that mode:
// ovnkube mode pulls in @pulumi/kubernetes, whose loading alone costs every run about a second.
import type * as pulumi from "@pulumi/pulumi";
import type { Chassis } from "../hosts";
import type { TopologyContext } from "../topology/context";
import type { ClusterScope } from "./clusterScope";
import type { HostGates } from "./hostGates";

export function writeTopology(
    { name, parent, model, owner, nbKey, nbOf }: ClusterScope,
    gates: HostGates,
    chassis: ReadonlyMap<string, Chassis>,
    databases: ReadonlyMap<string, pulumi.Resource>,
    kubeconfig: pulumi.Output<string> | undefined,
): void {
    const topology: TopologyContext = {
        name,
        parent,
        model,
        owner,
        connection: gates.connection,
        ...nbKey,
        chassis,
        databases: [...new Set(databases.values())],
        databasesOf: (h) => databases.get(h)!,
        bundles: gates.bundles,
        nb: nbOf,
    };
    if (model.writer === "pulumi") (require("../topology/pulumi") as typeof import("../topology/pulumi")).pulumiTopology(topology);
    else (require("../topology/ovnkube") as typeof import("../topology/ovnkube")).ovnkubeTopology(topology, { kubeconfig });
}
