// What the API server says of ovnkube and the nodes: which ovnkube pods run where (each owned by
// one of the program's DaemonSets), and whether every node is Ready.
import { IDENTITY, CONTROL_PLANE, MASTER, OVNKUBE_DB } from "@ovn-kubernetes-as-code/cluster/kube";
import type { KubeModel } from "@ovn-kubernetes-as-code/cluster/model";
import { pollUntil, type KubeClient, type KubeObject } from "../kubeclient";

/** The control plane's DaemonSet: the cluster manager's (interconnect) or the master's. */
export const controlPlaneOf = (kube: KubeModel) => (kube.architecture === "interconnect" ? CONTROL_PLANE : MASTER);

/** `<DaemonSet>@<node>` for every pod the plan's DaemonSets should run (ovnkube-identity's on the masters too). Pure. */
export function plannedOvnkubePods(kube: KubeModel): string[] {
    const onMasters = [controlPlaneOf(kube), ...(kube.identity ? [IDENTITY] : [])];
    return [
        ...onMasters.flatMap((ds) => kube.masterNodes.map((node) => `${ds}@${node}`)),
        ...(kube.centralDatabases?.members.map((m) => `${OVNKUBE_DB}@${m.node}`) ?? []),
        ...kube.nodeGroups.flatMap((g) => g.nodes.map((node) => `${g.name}@${node}`)),
    ].sort();
}

export interface OvnkubePod {
    name: string;
    /** `<DaemonSet>@<node>`. */
    placement: string;
    uid: string;
    phase: string;
}

/** The pods of the namespace that a DaemonSet owns, live or terminating. Pure. */
export function ovnkubePodsOf(pods: KubeObject[]): OvnkubePod[] {
    return pods
        .map((p) => {
            const owner = (p.metadata.ownerReferences as Array<{ kind: string; name: string }> | undefined)?.find(
                (o) => o.kind === "DaemonSet",
            );
            const node = (p.spec as { nodeName?: string }).nodeName;
            const phase = p.metadata.deletionTimestamp ? "Terminating" : ((p.status as { phase?: string } | undefined)?.phase ?? "Unknown");
            return owner && node
                ? { name: p.metadata.name ?? "", placement: `${owner.name}@${node}`, uid: p.metadata.uid ?? "", phase }
                : undefined;
        })
        .filter((p): p is OvnkubePod => p !== undefined)
        .sort((a, b) => a.placement.localeCompare(b.placement));
}

/**
 * Waits, bounded, until exactly the planned pods run, none terminating, and none of them is one
 * of `replaced` (pods deleted just before, which their DaemonSet must have recreated).
 */
export async function waitOvnkubePodsRunning(
    admin: KubeClient,
    kube: KubeModel,
    timeoutMs: number,
    replaced: ReadonlySet<string> = new Set(),
): Promise<OvnkubePod[]> {
    const want = plannedOvnkubePods(kube).join(", ");
    return pollUntil(
        async () => {
            const pods = ovnkubePodsOf(await admin.list("v1", "Pod", { namespace: kube.namespace }));
            const seen = pods.map((p) => `${p.placement} ${p.phase}${replaced.has(p.uid) ? " (old)" : ""}`).join(", ");
            const ok = pods.every((p) => p.phase === "Running" && !replaced.has(p.uid)) && pods.map((p) => p.placement).join(", ") === want;
            if (!ok) throw new Error(`want ${want} Running; have ${seen || "none"}`);
            return pods;
        },
        { timeoutMs, intervalMs: 500, what: `the ovnkube pods in ${kube.namespace}` },
    );
}

/** Waits, bounded, until every node reports Ready=True; returns their names. */
export async function waitNodesReady(admin: KubeClient, timeoutMs: number): Promise<string[]> {
    return pollUntil(
        async () => {
            const nodes = await admin.list("v1", "Node");
            const ready = (n: KubeObject) =>
                ((n.status as { conditions?: Array<{ type: string; status: string }> }).conditions ?? []).some(
                    (c) => c.type === "Ready" && c.status === "True",
                );
            const notReady = nodes.filter((n) => !ready(n)).map((n) => n.metadata.name);
            if (nodes.length === 0 || notReady.length > 0) throw new Error(`not Ready: ${notReady.join(", ") || "no nodes registered"}`);
            return nodes.map((n) => n.metadata.name!).sort();
        },
        { timeoutMs, intervalMs: 500, what: "every node to be Ready" },
    );
}

/**
 * Deletes the ovnkube pods that `which` selects and waits, bounded, until their DaemonSets have
 * recreated them and every planned pod runs again.
 */
export async function recreateOvnkubePods(
    admin: KubeClient,
    kube: KubeModel,
    which: (pod: OvnkubePod) => boolean,
    timeoutMs: number,
): Promise<OvnkubePod[]> {
    const old = ovnkubePodsOf(await admin.list("v1", "Pod", { namespace: kube.namespace })).filter(which);
    if (old.length === 0) throw new Error(`no ovnkube pod in ${kube.namespace} matches: nothing to recreate`);
    for (const pod of old) await admin.delete({ apiVersion: "v1", kind: "Pod", namespace: kube.namespace, name: pod.name });
    return waitOvnkubePodsRunning(admin, kube, timeoutMs, new Set(old.map((p) => p.uid)));
}

/** The images the pods in ovnkube's namespace run, sorted, each once. */
export async function ovnkubeImages(admin: KubeClient, kube: KubeModel): Promise<string[]> {
    const pods = await admin.list("v1", "Pod", { namespace: kube.namespace });
    return [
        ...new Set(pods.flatMap((p) => ((p.spec as { containers?: Array<{ image: string }> }).containers ?? []).map((c) => c.image))),
    ].sort();
}
