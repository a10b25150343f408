// The MTU scenario on a live Pulumi-mode cluster of 3 hosts: the overlay MTU is raised from 1400
// to the largest a 1500-byte underlay carries with geneve, while pod-a (node1) and pod-b (node2)
// ping each other. Shared by test/e2e/liveLab/mtuChange.ts and bench/changes/mtu-change.ts.
import { TUNNEL_OVERHEAD } from "@ovn-kubernetes-as-code/cluster/compat";
import { hostExec, podExec, startPod, stopPod, type LocalPod } from "../localcluster";
import { editStack, PROJECT_KEY, upUnderTraffic, type ChangeOutcome, type LiveLab } from "./liveChange";

/** The underlay's MTU on the local cluster's links. */
export const UNDERLAY_MTU = 1500;

/** What geneve adds around a pod's packet (the product's figure, which the DF pings here prove). */
export const GENEVE_OVERHEAD = TUNNEL_OVERHEAD.geneve;

/** The largest overlay MTU the local cluster's underlay carries: the new MTU of the scenario. */
export const NEW_MTU = UNDERLAY_MTU - GENEVE_OVERHEAD;

/** Sets `mtu` in the stack and runs `up` while the pods ping each other. */
export function changeMtu(lab: LiveLab, mtu: number): Promise<ChangeOutcome<never>> {
    editStack(lab, (config) => (config[PROJECT_KEY("mtu")] = mtu));
    return upUnderTraffic(lab, [
        [lab.pods[0], lab.pods[1]],
        [lab.pods[1], lab.pods[0]],
    ]);
}

/** Pods take their MTU at creation (the CNI's ADD): the pods are created again with the stack's MTU. */
export async function recreatePods(lab: LiveLab): Promise<void> {
    const next: LocalPod[] = [];
    for (const p of lab.pods) {
        await stopPod(lab.cluster, lab.model, p.node, p.namespace, p.pod);
        next.push(await startPod(lab.cluster, lab.model, p.node, p.namespace, p.pod, p === lab.pods[0] ? 10 : 11));
    }
    lab.pods = [next[0], next[1]];
}

/** A ping of exactly `size` bytes of IP packet with Don't Fragment set, from a pod or a host; true when answered. */
export async function dfPing(lab: LiveLab, from: LocalPod | string, ip: string, size: number): Promise<{ ok: boolean; output: string }> {
    const argv = ["ping", "-n", "-M", "do", "-s", String(size - 28), "-c", "3", "-i", "0.2", "-W", "2", ip];
    const r = typeof from === "string" ? await hostExec(lab.cluster, from, argv) : await podExec(lab.cluster, from, argv);
    return { ok: r.code === 0, output: (r.stdout + r.stderr).trim() };
}
