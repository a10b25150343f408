// Reading the plain DaemonSets in tests: the main container, a flag's value, the nodes a
// DaemonSet is held to.
import type { Container, DaemonSet } from "../../components/kube/types";

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
