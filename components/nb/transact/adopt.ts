// Import of a group nobody recorded: the rows ovn-kubernetes' own tools made (the seeds'
// `ovn-k8s-overlay master-init / minion-init / gateway-init`, one ovn-nbctl command at a time)
// carry no ownership tags, so they are found by the names those tools give them (../core/rowNames):
// switches, routers and ports by name, a NAT row or static route by its router and the columns
// that tell it apart there, a load balancer by the external_ids key that marks it. One read-only
// transaction. Rows tagged by any owner are never taken (they are someone's, or found by tags
// instead); a name held by several untagged rows is an error naming them. The result records
// each row's UUID, so the next update claims exactly these rows (../core/claims) and writes the tags.
// Pure apart from the one read.
import type { OvsdbTransactor } from "../../ovsdb/client";
import { map, mapToRecord, uuidText, uuidTexts, type Row } from "../../ovsdb/encoding";
import { select, where, type SelectOp } from "../../ovsdb/operations";
import { knownRows, projectRow } from "../core/liveState";
import type { RowSpec, RowState } from "../core/rows";
import type { LiveRow } from "../core/snapshot";
import { NB_DB, parentOf } from "../core/tables";
import { TAG_OWNER } from "../core/tags";

/** The select that finds a spec's row by its ovn-kubernetes name, and the router that must hold it (NAT, routes). */
function lookup(spec: RowSpec): { op: SelectOp; router?: { name: string; column: string } } {
    const id = spec.identity;
    switch (id.table) {
        case "NAT":
            return {
                op: select("NAT", [where("type", "==", id.type), where("logical_ip", "==", id.logicalIp)]),
                router: { name: id.router, column: parentOf("NAT")!.column },
            };
        case "Logical_Router_Static_Route":
            return {
                op: select(id.table, [where("ip_prefix", "==", id.ipPrefix), where("nexthop", "==", id.nexthop)]),
                router: { name: id.router, column: parentOf(id.table)!.column },
            };
        case "Load_Balancer":
            return { op: select(id.table, [where("external_ids", "includes", map({ [id.externalId[0]]: id.externalId[1] }))]) };
        default:
            return { op: select(id.table, [where("name", "==", id.name)]) };
    }
}

/** Row key → the one untagged row ovn-kubernetes' names point at (specs whose row is missing are left out). */
export async function findByNames(session: OvsdbTransactor, specs: readonly RowSpec[]): Promise<Record<string, LiveRow>> {
    const lookups = specs.map(lookup);
    const routers = [...new Set(lookups.flatMap((l) => (l.router ? [l.router.name] : [])))];
    const ops = [
        ...lookups.map((l) => l.op),
        ...routers.map((name) =>
            select(
                "Logical_Router",
                [where("name", "==", name)],
                ["_uuid", parentOf("NAT")!.column, parentOf("Logical_Router_Static_Route")!.column],
            ),
        ),
    ];
    const results = await session.transact(NB_DB, ops);
    const held: Record<string, Row[]> = {};
    routers.forEach((name, i) => (held[name] = results[lookups.length + i].rows));
    const found: Record<string, LiveRow> = {};
    specs.forEach((spec, i) => {
        const router = lookups[i].router;
        const members = router ? held[router.name].flatMap((r) => uuidTexts(r[router.column])) : undefined;
        const rows = results[i].rows.filter(
            (row) => mapToRecord(row.external_ids)[TAG_OWNER] === undefined && (!members || members.includes(uuidText(row._uuid))),
        );
        if (rows.length > 1) {
            throw new Error(
                `${spec.name} is held by ${rows.length} untagged rows (uuids ${rows.map((r) => uuidText(r._uuid)).join(", ")}): delete the copies, then import again`,
            );
        }
        if (rows.length === 1) found[spec.key] = { uuid: uuidText(rows[0]._uuid), table: spec.table, key: spec.key, row: rows[0] };
    });
    return found;
}

/** The group as found by names, in the shape of outputs' `rows`; undefined when none of its rows exists. */
export async function adoptGroup(session: OvsdbTransactor, group: string, specs: RowSpec[]): Promise<Record<string, RowState> | undefined> {
    const found = await findByNames(session, specs);
    if (Object.keys(found).length === 0) return undefined;
    const known = knownRows(group, { own: [], foreign: {} }, found);
    const states: Record<string, RowState> = {};
    for (const spec of specs) if (found[spec.key]) states[spec.name] = projectRow(spec, found[spec.key], known);
    return states;
}
