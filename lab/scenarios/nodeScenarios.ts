// The node scenarios step by step, for the tests that assert between the steps and the benchmark
// modules that time the `up` carrying the change (bench/changes/).
import type { NodeNetworkModel } from "@ovn-kubernetes-as-code/cluster/model";
import type { LocalPod } from "../localcluster";
import { apply } from "../offline/api";
import { CHANGED, editNodes, nodeLab, ok, podOn, upWithTraffic, type NodeLab } from "./nodeChange";

const networkOf = (lab: NodeLab, node: string): NodeNetworkModel => lab.model.nodeNetworks.find((n) => n.node === node)!;

/** node2 with a pod on it, to be removed from the stack. */
export async function removeNodeSteps(id: string) {
    const lab = await nodeLab(id, 3);
    const { pod, remove } = await podOn(lab, CHANGED, "pod-c");
    return {
        lab,
        pod,
        network: networkOf(lab, CHANGED),
        dropFromStack: () => editNodes(lab, (nodes) => nodes.filter((n) => n.name !== CHANGED)),
        /** The drain: the pod leaves the node (as `kubectl drain` would have it deleted). */
        drain: remove,
        upWithTraffic: () => upWithTraffic(lab),
    };
}

/** A stack without node2, whose host is up: node2 is appended to the stack. */
export async function addNodeSteps(id: string) {
    const lab = await nodeLab(id, 4, [CHANGED]);
    return {
        lab,
        appendToStack: () => editNodes(lab, (nodes) => [...nodes, lab.written[CHANGED]]),
        upWithTraffic: () => upWithTraffic(lab),
        /** A pod on the added node, once it is there. */
        podOnAdded: (): Promise<LocalPod> => podOn(lab, CHANGED, "pod-c").then((p) => p.pod),
    };
}

/** node2 renamed in the stack: refused in one up, done as a removal then an addition. */
export async function renameNodeSteps(id: string, to = `${CHANGED}b`) {
    const lab = await nodeLab(id, 3);
    const rename = (from: string, into: string) =>
        editNodes(lab, (nodes) => nodes.map((n) => (n.name === from ? { ...n, name: into } : n)));
    return {
        lab,
        to,
        network: networkOf(lab, CHANGED),
        renameInStack: () => rename(CHANGED, to),
        undoRename: () => rename(to, CHANGED),
        /** The two `up`s that do a rename: without the node, then with it under its new name. */
        async renameInTwoUps() {
            editNodes(lab, (nodes) => nodes.filter((n) => n.name !== CHANGED));
            const removed = await upWithTraffic(lab);
            ok(removed.result, "the removal");
            editNodes(lab, (nodes) => [...nodes, { ...lab.written[CHANGED], name: to }]);
            const added = await upWithTraffic(lab);
            return { removed, added };
        },
        upWithTraffic: () => upWithTraffic(lab),
        apply: () => apply(lab.options),
    };
}
