// An ovn-kubernetes release rolling under traffic: probes both ways between two pods on different
// nodes (20 a second) from before the `up` until every ovnkube pod of the new release runs in place
// of the old ones. Shared by the upgrade tests of both architectures and `npm run bench:changes`.
import type { KubeModel } from "@ovn-kubernetes-as-code/cluster/model";
import type { LocalPod } from "../localcluster";
import { podRef, type KubePod } from "../localcluster/kubeWorkloads";
import { apply, type OperationResult } from "../offline/api";
import { continuousPing, type Traffic } from "./liveChange";
import type { OvnkubeLab } from "./ovnkubeLab";
import { ovnkubePodsOf, waitOvnkubePodsRunning } from "./ovnkubePods";

export interface Rollout {
    result: OperationResult;
    /** The `up` alone, in seconds. */
    upSeconds: number;
    /** a → b and b → a, until the new release's pods all ran. */
    traffic: Traffic[];
}

/** A Kubernetes pod as the lab's probes address it. */
export const asLocalPod = (p: KubePod): LocalPod => ({ ...podRef(p), ifaceId: p.name }) as LocalPod;

/** Applies the stack (already rewritten for the new release, whose plan is `to`) with probes between `a` and `b` running. */
export async function upgradeUnderProbes(
    lab: OvnkubeLab,
    to: KubeModel,
    [a, b]: readonly [KubePod, KubePod],
    timeoutMs = 180_000,
): Promise<Rollout> {
    const old = ovnkubePodsOf(await lab.admin.list("v1", "Pod", { namespace: to.namespace }));
    const probes = [continuousPing(lab.cluster, asLocalPod(a), b.ip), continuousPing(lab.cluster, asLocalPod(b), a.ip)];
    const started = Date.now();
    try {
        const result = await apply(lab.offline);
        const upSeconds = (Date.now() - started) / 1000;
        if (result.ok) await waitOvnkubePodsRunning(lab.admin, to, timeoutMs, new Set(old.map((p) => p.uid)));
        return { result, upSeconds, traffic: await Promise.all(probes.map((p) => p.stop())) };
    } catch (e) {
        await Promise.all(probes.map((p) => p.stop().catch(() => undefined)));
        throw e;
    }
}
