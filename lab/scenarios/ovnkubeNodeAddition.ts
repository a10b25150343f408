// A node joining a running ovnkube-mode cluster the way an operator adds one, under traffic between
// pods on two nodes it does not touch: its kubelet registers the Node while ovnkube runs (the
// cluster manager gives it an id and a subnet at once), then the stack lists it and one `up` sets it
// up. Returns what the test asserts: the outcome, the probes, what ovnkube had given the Node before
// the plan reached it, the Node's annotations once ovnkube's pods all run again, and which
// ovnkube-node pods of the untouched nodes were replaced meanwhile.
import type { KubeModel } from "@ovn-kubernetes-as-code/cluster/model";
import { NODE_ID_ANNOTATION, NODE_SUBNETS_ANNOTATION } from "@ovn-kubernetes-as-code/cluster/kube";
import { restartNodeKubelet } from "../localcluster/kubernetes";
import { podRef, removeDemoWorkloads, startDemoPod, type KubePod } from "../localcluster/kubeWorkloads";
import type { LocalPod } from "../localcluster";
import { pollUntil } from "../kubeclient";
import { apply, type OperationResult } from "../offline/api";
import { continuousPing, type Traffic } from "./liveChange";
import type { OvnkubeLab } from "./ovnkubeLab";
import { controlPlaneOf, ovnkubePodsOf, waitOvnkubePodsRunning } from "./ovnkubePods";

export interface NodeAddition {
    done: OperationResult;
    upSeconds: number;
    traffic: Traffic[];
    /** The node-id and node-subnets the cluster manager gave the Node when it registered. */
    assigned: Record<string, string>;
    /** The Node's ovn-kubernetes annotations once every ovnkube pod of the new plan runs. */
    annotations: Record<string, string>;
    /** `<DaemonSet>@<node>` of the untouched nodes' ovnkube-node pods that are not the ones that ran before the up. */
    nodePodsReplaced: string[];
}

const asLocal = (p: KubePod): LocalPod => ({ ...podRef(p), ifaceId: p.name }) as LocalPod;

/** Adds `node` (a host of the lab whose kubelet was stopped and whose Node was deleted); `restack` writes the stack with it, `to` is its plan. */
export async function addOvnkubeNode(
    lab: OvnkubeLab,
    to: KubeModel,
    node: string,
    untouched: [string, string],
    restack: () => void,
): Promise<NodeAddition> {
    const stay = await Promise.all(
        untouched.map((n, i) => startDemoPod(lab.admin, lab.cluster, { name: `stay-${i}`, node: n, command: ["sleep", "infinity"] })),
    );
    const probes = [continuousPing(lab.cluster, asLocal(stay[0]), stay[1].ip), continuousPing(lab.cluster, asLocal(stay[1]), stay[0].ip)];
    let traffic: Promise<Traffic[]> | undefined;
    const stopProbes = () => (traffic ??= Promise.all(probes.map((p) => p.stop())));
    try {
        await restartNodeKubelet(lab.cluster, lab.kubernetes, node);
        const idAndSubnet = async () => {
            const a = (await lab.admin.get({ apiVersion: "v1", kind: "Node", name: node })).metadata.annotations ?? {};
            return a[NODE_ID_ANNOTATION] && a[NODE_SUBNETS_ANNOTATION]
                ? { [NODE_ID_ANNOTATION]: a[NODE_ID_ANNOTATION], [NODE_SUBNETS_ANNOTATION]: a[NODE_SUBNETS_ANNOTATION] }
                : undefined;
        };
        const assigned = await pollUntil(idAndSubnet, {
            timeoutMs: 60_000,
            intervalMs: 500,
            what: `the cluster manager to give ${node} an id and a subnet`,
        });

        restack();
        const old = ovnkubePodsOf(await lab.admin.list("v1", "Pod", { namespace: to.namespace }));
        const started = Date.now();
        const done = await apply(lab.offline);
        const upSeconds = (Date.now() - started) / 1000;
        // The control plane restarted for the new plan; every planned pod runs, the new node's too.
        const controlPlane = old.filter((p) => p.placement.startsWith(`${controlPlaneOf(to)}@`));
        const running = done.ok ? await waitOvnkubePodsRunning(lab.admin, to, 180_000, new Set(controlPlane.map((p) => p.uid))) : [];
        const groups = new Set(to.nodeGroups.map((g) => g.name));
        const nodePods = old.filter((p) => groups.has(p.placement.split("@")[0]) && untouched.includes(p.placement.split("@")[1]));
        const nodePodsReplaced = nodePods.filter((p) => !running.some((r) => r.uid === p.uid)).map((p) => p.placement);
        const annotations = Object.fromEntries(
            Object.entries((await lab.admin.get({ apiVersion: "v1", kind: "Node", name: node })).metadata.annotations ?? {}).filter(([k]) =>
                k.startsWith("k8s.ovn.org/"),
            ),
        );
        return { done, upSeconds, traffic: await stopProbes(), assigned, annotations, nodePodsReplaced };
    } finally {
        await stopProbes().catch(() => undefined);
        await removeDemoWorkloads(lab.admin, lab.cluster, stay, []);
    }
}
