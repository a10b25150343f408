// Reading the plain DaemonSets in tests: the main container, a flag's value, the nodes a
// DaemonSet is held to.
import type { Container, DaemonSet, NodePatch } from "../../components/kube/objectTypes";

export const main = (ds: DaemonSet): Container => ds.spec.template.spec.containers[0];

/** The value after `name` in the container's arguments, undefined when the flag is absent. */
export function flag(c: Container, name: string): string | undefined {
    const args = c.args ?? [];
    const i = args.indexOf(name);
    return i < 0 ? undefined : args[i + 1];
}

export const hasFlag = (c: Container, name: string) => (c.args ?? []).includes(name);

/** The node names the DaemonSet's required node affinity admits (terms are ORed). */
export function affinityNodes(ds: DaemonSet): string[] {
    const terms = ds.spec.template.spec.affinity?.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms ?? [];
    return terms.flatMap((t) => t.matchFields.filter((f) => f.key === "metadata.name" && f.operator === "In").flatMap((f) => f.values));
}

/**
 * The planned nodes whose plans put on them every label the DaemonSet's nodeSelector asks for
 * (`kubernetes.io/os` aside: the kubelet sets that one, and every node here is Linux).
 */
export function selectedNodes(ds: DaemonSet, plans: readonly NodePatch[]): string[] {
    const wanted = Object.entries(ds.spec.template.spec.nodeSelector ?? {}).filter(([k]) => k !== "kubernetes.io/os");
    if (wanted.length === 0) throw new Error(`${ds.metadata.name} selects no node by a planned label`);
    return plans.filter((p) => wanted.every(([k, v]) => p.metadata.labels?.[k] === v)).map((p) => p.metadata.name);
}

/**
 * The container's command line with `$(VAR)` expanded from its env as the kubelet does for a pod on
 * a node: fieldRefs spec.nodeName and status.hostIP, configMapKeyRefs into the model's ovn-config.
 */
export function expandedCommand(c: Container, config: Record<string, string>, pod: { node: string; hostIP: string }): string[] {
    const fields: Record<string, string> = { "spec.nodeName": pod.node, "status.hostIP": pod.hostIP };
    const values = new Map<string, string>();
    for (const e of c.env ?? []) {
        const { configMapKeyRef, fieldRef } = e.valueFrom;
        const value = configMapKeyRef ? config[configMapKeyRef.key] : fieldRef ? fields[fieldRef.fieldPath] : undefined;
        if (value !== undefined) values.set(e.name, value);
    }
    return [...c.command, ...(c.args ?? [])].map((arg) =>
        arg.replace(/\$\(([A-Z0-9_]+)\)/g, (whole, name: string) => values.get(name) ?? whole),
    );
}
