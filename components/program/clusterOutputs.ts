// What the cluster component tells its program: the addresses it planned, each chassis' system-id,
// who writes the topology and where the Kubernetes objects go.
import * as pulumi from "@pulumi/pulumi";
import type { Chassis } from "../hosts";
import type { ClusterModel } from "../model/types";
import { kubernetesTarget } from "./kubernetesTarget";

export interface ClusterOutputs {
    topologyWriter: pulumi.Output<string>;
    kubernetesServer: pulumi.Output<string>;
    nodeSubnets: pulumi.Output<Record<string, string>>;
    routerIps: pulumi.Output<Record<string, string>>;
    managementIps: pulumi.Output<Record<string, string>>;
    nbAddress: pulumi.Output<string>;
    sbAddress: pulumi.Output<string>;
    systemIds: pulumi.Output<Record<string, string>>;
}

export function clusterOutputs(
    model: ClusterModel,
    chassis: ReadonlyMap<string, Chassis>,
    kubeconfig: pulumi.Output<string> | undefined,
): ClusterOutputs {
    const byNode = (f: (n: ClusterModel["nodeNetworks"][number]) => string) =>
        pulumi.output(Object.fromEntries(model.nodeNetworks.map((n) => [n.node, f(n)])));
    return {
        topologyWriter: pulumi.output(model.writer),
        kubernetesServer: model.writer === "ovnkube" ? kubernetesTarget(kubeconfig) : pulumi.output(""),
        nodeSubnets: byNode((n) => n.subnet),
        routerIps: byNode((n) => n.router.ip),
        managementIps: byNode((n) => n.mgmt.ip),
        nbAddress: pulumi.output(model.nbAddress),
        sbAddress: pulumi.output(model.sbAddress),
        systemIds: pulumi.all(Object.fromEntries([...chassis].map(([n, c]) => [n, c.systemId]))),
    };
}
