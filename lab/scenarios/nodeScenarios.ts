// The node scenarios step by step, for the tests that assert between the steps and the benchmark
// modules that time the `up` carrying the change (bench/changes/). Each `…On` works on a running
// lab, so one lab can carry them in turn (removal, addition, rename); each `…Steps` brings up its own.
import type { NodeNetworkModel } from "@ovn-kubernetes-as-code/cluster/model";
import type { LocalPod } from "../localcluster";
import { apply } from "../offline/api";
import { CHANGED, editNodes, nodeLab, ok, podOn, upWithTraffic, type NodeLab } from "./nodeChange";

const networkOf = (lab: NodeLab, node: string): NodeNetworkModel => lab.model.nodeNetworks.find((n) => n.node === node)!;

/** node2 with a pod on it, to be removed from the stack. */
export async function removeNodeSteps(id: string) {
    return removeNodeStepsOn(await nodeLab(id, 3));
}

/** node2, in the stack, gets a pod, and is then to be removed. */
export async function removeNodeStepsOn(lab: NodeLab) {
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
    return addNodeStepsOn(await nodeLab(id, 4, [CHANGED]));
}

/** node2's host is up and not in the stack: node2 is appended to it as first written. */
export function addNodeStepsOn(lab: NodeLab) {
    return {
        lab,
        appendToStack: () => editNodes(lab, (nodes) => [...nodes, lab.written[CHANGED]]),
        upWithTraffic: () => upWithTraffic(lab),
        /** A pod on the added node, once it is there, with how to remove it. */
        podOnAdded: (): Promise<{ pod: LocalPod; remove(): Promise<void> }> => podOn(lab, CHANGED, "pod-c"),
    };
}

/** node2 renamed in the stack: refused in one up, done as a removal then an addition. */
export async function renameNodeSteps(id: string, to = `${CHANGED}b`) {
    return renameNodeStepsOn(await nodeLab(id, 3), to);
}

/** node2, in the stack without pods, is renamed `to`. */
export function renameNodeStepsOn(lab: NodeLab, to = `${CHANGED}b`) {
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
