// The demo's pods in Pulumi mode: two hand-made pods (logical ports `demo_pod-a`, `demo_pod-b`) on
// the first two hosts' node switches, as `npm run demo -- --pulumi-mode` starts them and
// `npm run demo -- --remove-pods` removes them. They are not the stack's, so while they exist a
// destroy, or the removal of their nodes, refuses.
import type { ClusterModel } from "@ovn-kubernetes-as-code/cluster/model";
import type { LocalPod } from "./pods";
import type { LocalCluster } from "./state";
import { startPod, stopPod } from "./workloads";

/** The demo's workloads, by name: created by the demo, removed by --remove-pods. */
export const DEMO_PODS = ["pod-a", "pod-b"] as const;
/** Pulumi mode's hand-made pods live in this namespace (their logical port is demo_<pod>). */
export const PULUMI_MODE_NAMESPACE = "demo";

/** The hosts the demo's pods sit on: the first two nodes with a switch, in host order. */
function demoNodes(cluster: LocalCluster, model: ClusterModel): string[] {
    const nodes = cluster.hosts.map((h) => h.name).filter((name) => model.nodeNetworks.some((n) => n.node === name));
    if (nodes.length === 0) throw new Error(`local cluster ${cluster.id} has no node with a switch for the demo's pods`);
    return DEMO_PODS.map((_, i) => nodes[i % nodes.length]);
}

export async function startPulumiDemoPods(cluster: LocalCluster, model: ClusterModel): Promise<LocalPod[]> {
    const nodes = demoNodes(cluster, model);
    const pods: LocalPod[] = [];
    for (const [i, pod] of DEMO_PODS.entries()) pods.push(await startPod(cluster, model, nodes[i], PULUMI_MODE_NAMESPACE, pod, 10 + i));
    return pods;
}

/** Safe to run twice: a pod already gone is no error. Returns the pods removed, as `<node>/<pod>`. */
export async function removePulumiDemoPods(cluster: LocalCluster, model: ClusterModel): Promise<string[]> {
    const nodes = demoNodes(cluster, model);
    for (const [i, pod] of DEMO_PODS.entries()) await stopPod(cluster, model, nodes[i], PULUMI_MODE_NAMESPACE, pod);
    return DEMO_PODS.map((pod, i) => `${nodes[i]}/${PULUMI_MODE_NAMESPACE}_${pod}`);
}
