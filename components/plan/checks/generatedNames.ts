// The Northbound names the model generates from node and bridge names must be unique: OVN finds
// switches and routers by name, and ovn-northd binds ports by name across switch and router ports
// alike, so a node named `join`, or a bridge named so that `<bridge>_<node>` is another port's
// name, would make two rows one. A pure check over the built model's names.
import type { ClusterModel } from "../../model/types";
import type { Problem } from "../../config/problem";

/** One generated name, the NB table it lives in, and the config path that decides it. */
interface Generated {
    table: "Logical_Switch" | "Logical_Router" | "logical port";
    name: string;
    /** Undefined for the cluster's own names (ovn_cluster_router, join, …), which no setting changes. */
    path?: string;
}

/** Every name the model generates; fixed names first, so a clash is blamed on the configurable one. */
export function generatedNames(model: ClusterModel, nodeIndex: (node: string) => number): Generated[] {
    const r = model.clusterRouter;
    const node = (name: string) => `nodes[${nodeIndex(name)}].name`;
    const ports = (path: string | undefined, names: string[]) => names.map((name): Generated => ({ table: "logical port", name, path }));
    return [
        { table: "Logical_Router", name: r.name },
        { table: "Logical_Switch", name: r.joinSwitch },
        ...ports(undefined, [r.joinPort, r.joinPeerPort]),
        ...model.nodeNetworks.flatMap((n): Generated[] => [
            { table: "Logical_Switch", name: n.switchName, path: node(n.node) },
            ...ports(node(n.node), [n.routerPort, n.routerPeerPort, n.mgmtPort]),
        ]),
        ...model.gateways.flatMap((g): Generated[] => [
            { table: "Logical_Router", name: g.router, path: node(g.node) },
            { table: "Logical_Switch", name: g.externalSwitch, path: node(g.node) },
            ...ports(node(g.node), [g.joinPort, g.joinPeerPort, g.externalPort, g.externalPeerPort]),
        ]),
        ...model.gateways.flatMap((g) => ports(`nodes[${nodeIndex(g.node)}].gateway.bridge`, [g.uplinkPort])),
    ];
}

export function generatedNameClashes(names: Generated[]): Problem[] {
    const seen = new Map<string, Generated>();
    const problems: Problem[] = [];
    for (const g of names) {
        const key = `${g.table}\0${g.name}`;
        const first = seen.get(key);
        if (!first) seen.set(key, g);
        else if (g.path !== undefined) {
            const other = first.path === undefined ? `the cluster topology's own ${g.table}` : `a ${g.table} generated from ${first.path}`;
            problems.push({
                path: g.path,
                message: `generates the ${g.table} name "${g.name}", which is also ${other}: OVN would see one row where two are meant; choose another name`,
            });
        }
    }
    return problems;
}
