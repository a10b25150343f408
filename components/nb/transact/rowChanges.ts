// The operations that bring one existing row to its spec, and those that remove rows no spec
// wants. Pure helpers of ./reconcile.
import { map, mapToRecord, set, setAtoms, uuid, uuidTexts, type Atom, type Row, type Value } from "../../ovsdb/encoding";
import { deleteRows, mutate, mutation, update, where, type Mutation, type Operation } from "../../ovsdb/operations";
import { labelOf, type Step, type Watched } from "./guards";
import { refId, sameValue, sortedCopy, type RowSpec } from "../core/rows";
import type { LiveRow } from "../core/snapshot";
import { childColumns, childTable, isRoot, parentOf, type NbTable } from "../core/tables";

export const byUuid = (u: string) => [where("_uuid", "==", uuid(u))];
export const encode = (value: string | string[]): Value => (typeof value === "string" ? value : set(value));

/**
 * `update` of the owned columns that differ, then one `mutate` for the map keys and reference-set
 * members that differ (delete the stale key, insert the new pair; members likewise), so that
 * keys and members of other writers stay. `wanted` gives each desired reference as a value of
 * this transaction; `known` maps UUIDs of rows this stack knows to their ref ids.
 */
export function changeOps(spec: RowSpec, live: LiveRow, wanted: (column: string) => Atom[], known: Record<string, string>): Operation[] {
    const ops: Operation[] = [];
    const columns: Row = {};
    for (const [name, value] of Object.entries(spec.columns)) {
        const current = setAtoms(live.row[name]);
        const same =
            typeof value === "string"
                ? current.length === 1 && current[0] === value
                : sameValue(sortedCopy(current as string[]), sortedCopy(value));
        if (!same) columns[name] = encode(value);
    }
    if (Object.keys(columns).length > 0) ops.push(update(spec.table, byUuid(live.uuid), columns));

    const mutations: Mutation[] = [];
    for (const [name, desired] of Object.entries(spec.maps)) {
        const current = mapToRecord(live.row[name]);
        const differing = Object.keys(desired).filter((k) => current[k] !== desired[k]);
        if (differing.length === 0) continue;
        const stale = differing.filter((k) => k in current);
        if (stale.length > 0) mutations.push(mutation(name, "delete", set(stale)));
        mutations.push(mutation(name, "insert", map(Object.fromEntries(differing.map((k) => [k, desired[k]])))));
    }
    for (const [name, refs] of Object.entries(spec.refs)) {
        const current = uuidTexts(live.row[name]);
        const missing = wanted(name).filter((v) => !(Array.isArray(v) && v[0] === "uuid" && current.includes(v[1])));
        const wantedIds = refs.map(refId);
        const unwanted = current.filter((u) => u in known && !wantedIds.includes(known[u]));
        if (unwanted.length > 0) mutations.push(mutation(name, "delete", set(unwanted.map((u) => uuid(u)))));
        if (missing.length > 0) mutations.push(mutation(name, "insert", set(missing)));
    }
    if (mutations.length > 0) ops.push(mutate(spec.table, byUuid(live.uuid), mutations));
    return ops;
}

export interface Blocked {
    parent: { table: NbTable; key: string; uuid: string };
    children: { table: NbTable; uuid: string }[];
}

/**
 * Removes rows: a root by `delete`, guarded by a wait that it still has the tags and holds exactly
 * the children seen (all of them ours: a root holding someone else's rows is reported in
 * `blocked` instead); a non-root row by taking it out of whatever set holds it, which makes OVSDB
 * delete it, guarded by a wait that it still has the tags that made it ours. Non-root rows go
 * first: once their root is deleted in the same transaction, no set holds them any more.
 */
export function removalSteps(
    rows: readonly LiveRow[],
    ownUuids: Record<string, true>,
    watched: Watched,
): { steps: Step[]; blocked: Blocked[] } {
    const out = { steps: [] as Step[], blocked: [] as Blocked[] };
    for (const row of [...rows.filter((r) => !isRoot(r.table)), ...rows.filter((r) => isRoot(r.table))]) {
        const label = labelOf(row);
        if (!isRoot(row.table)) {
            const holder = parentOf(row.table)!;
            watched.watch(row, ["external_ids"], label);
            const op = mutate(
                holder.table,
                [where(holder.column, "includes", uuid(row.uuid))],
                [mutation(holder.column, "delete", uuid(row.uuid))],
            );
            out.steps.push({ op, counts: { row: label, rule: "some" } });
            continue;
        }
        const foreign: Blocked["children"] = [];
        for (const column of childColumns(row.table)) {
            const table = childTable(row.table, column)!;
            for (const u of uuidTexts(row.row[column])) if (!ownUuids[u]) foreign.push({ table, uuid: u });
        }
        if (foreign.length > 0) out.blocked.push({ parent: { table: row.table, key: row.key, uuid: row.uuid }, children: foreign });
        watched.watch(row, ["external_ids", ...childColumns(row.table)], label);
        out.steps.push({ op: deleteRows(row.table, byUuid(row.uuid)), counts: { row: label, rule: "one" } });
    }
    return out;
}
