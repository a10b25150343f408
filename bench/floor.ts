// The floor: the whole topology as ONE transaction. Built with the providers' own reconciler by
// treating every group as part of one pseudo-group whose row keys are `<group>:<key>`, so that
// references across groups (a node's port on the cluster router) become uuid-names of the same
// transaction. Rows carry the same columns and tags as when the providers create them.
import { reconcile } from "@ovn-kubernetes-as-code/cluster/nb";
import { refId, type RowRef, type RowSpec } from "@ovn-kubernetes-as-code/cluster/nb";
import type { Operation } from "@ovn-kubernetes-as-code/cluster/ovsdb";

const ALL = "all";

export function singleTransaction(owner: string, groups: { group: string; specs: RowSpec[] }[]): Operation[] {
    const rekey = (ref: RowRef): RowRef => ({ group: ALL, key: refId(ref), table: ref.table });
    const specs = groups.flatMap(({ group, specs }) =>
        specs.map((s): RowSpec => {
            const refs = Object.fromEntries(Object.entries(s.refs).map(([column, list]) => [column, list.map(rekey)]));
            const spec: RowSpec = { ...s, key: refId({ group, key: s.key }), refs };
            if (s.parent) spec.parent = rekey(s.parent);
            return spec;
        }),
    );
    return reconcile(owner, ALL, specs, { own: [], foreign: {} }).ops;
}
