// The reconciler: a group's desired rows and its live snapshot in, the operations of ONE
// transaction out. Pure. What it emits and why:
// - new rows: `insert` with a uuid-name; a non-root row is added to its parent's reference set in
//   the same transaction (inside the parent's insert when the parent is new too, else a `mutate`),
//   because OVSDB garbage-collects a non-root row that no parent holds.
// - changed rows: `update` of the owned columns that differ; map keys and reference-set members
//   by `mutate`, so keys and members written by others (ovnkube, operators) stay.
// - rows no longer wanted, duplicates: roots are deleted; non-root rows are removed from whatever
//   set holds them (`mutate … where <column> includes <uuid>`), which deletes them.
// - guards: a `wait` (timeout 0) that each row of another group we attach to or refer to still
//   exists, and that a root we delete still holds exactly the children we saw; if either changed
//   since the snapshot, the whole transaction fails instead of half-applying.
import { map, mapToRecord, namedUuid, set, setAtoms, uuid, uuidTexts, type Atom, type Row, type Value } from "../ovsdb/encoding";
import { comment, deleteRows, insert, mutate, mutation, update, wait, where, type Operation } from "../ovsdb/operations";
import { knownRows, matchRows } from "./liveState";
import { refId, sameValue, sortedCopy, type RowRef, type RowSpec } from "./rows";
import { foreignRow, type LiveRow, type Snapshot } from "./snapshot";
import { childColumns, childTable, isRoot, parentOf, type NbTable } from "./tables";

export interface ReconcilePlan {
    ops: Operation[];
    inserted: string[];
    updated: string[];
    removed: string[];
}

/** Root rows this group would delete still hold rows of someone else; deleting them would take those along. */
export class ForeignChildrenError extends Error {
    readonly blocked: { parent: { table: NbTable; key: string; uuid: string }; children: { table: NbTable; uuid: string }[] }[];
    constructor(blocked: ForeignChildrenError["blocked"]) {
        super(blocked.map((b) => `${b.parent.table} row "${b.parent.key}" (${b.parent.uuid}) still holds ${b.children.length} row(s) this resource does not own`).join("; "));
        this.name = "ForeignChildrenError";
        this.blocked = blocked;
    }
}

const byUuid = (u: string) => [where("_uuid", "==", uuid(u))];
const encode = (value: string | string[]): Value => (typeof value === "string" ? value : set(value));

function exists(table: NbTable, u: string): Operation {
    return wait(table, byUuid(u), { columns: ["_uuid"], until: "==", rows: [{ _uuid: uuid(u) }], timeout: 0 });
}

export function reconcile(owner: string, group: string, specs: readonly RowSpec[], snapshot: Snapshot): ReconcilePlan {
    const { matched, extra } = matchRows(specs, snapshot.own);
    const known = knownRows(group, snapshot);
    const ownUuids: Record<string, true> = {};
    for (const row of snapshot.own) ownUuids[row.uuid] = true;

    // Existing rows are referred to by UUID, new ones by a uuid-name valid within the transaction.
    const handle: Record<string, Atom> = {};
    specs.forEach((spec, i) => (handle[spec.key] = matched[spec.key] ? uuid(matched[spec.key].uuid) : namedUuid(`row${i}`)));
    const ownSpec: Record<string, RowSpec> = {};
    for (const spec of specs) ownSpec[spec.key] = spec;

    const guards: Record<string, Operation> = {};
    const changes: Operation[] = [];
    const inserts: Record<string, Row> = {};
    const plan: ReconcilePlan = { ops: [], inserted: [], updated: [], removed: [] };

    /** A referenced row: its value in this transaction and, when it exists already, its live row. */
    const resolve = (ref: RowRef): { value: Atom; live?: LiveRow } => {
        if (ref.group !== group) {
            const live = foreignRow(snapshot, ref, owner);
            guards[live.uuid] ??= exists(live.table, live.uuid);
            return { value: uuid(live.uuid), live };
        }
        if (!ownSpec[ref.key]) throw new Error(`internal: row "${ref.key}" of ${group} is referenced but not specified`);
        return { value: handle[ref.key], live: matched[ref.key] };
    };
    const liveUuid = (value: Atom) => (Array.isArray(value) && value[0] === "uuid" ? value[1] : undefined);

    // New rows.
    for (const spec of specs) {
        if (matched[spec.key]) continue;
        const row: Row = {};
        for (const [name, value] of Object.entries(spec.columns)) row[name] = encode(value);
        for (const [name, value] of Object.entries(spec.maps)) row[name] = map(value);
        for (const [name, refs] of Object.entries(spec.refs)) row[name] = set(refs.map((r) => resolve(r).value));
        inserts[spec.key] = row;
        plan.inserted.push(spec.key);
    }

    // Changed rows.
    for (const spec of specs) {
        const live = matched[spec.key];
        if (!live) continue;
        const where_ = byUuid(live.uuid);
        let changed = false;
        const columns: Row = {};
        for (const [name, value] of Object.entries(spec.columns)) {
            const current = setAtoms(live.row[name]);
            const same = typeof value === "string" ? current.length === 1 && current[0] === value : sameValue(sortedCopy(current as string[]), sortedCopy(value));
            if (!same) columns[name] = encode(value);
        }
        if (Object.keys(columns).length > 0) {
            changes.push(update(spec.table, where_, columns));
            changed = true;
        }
        const mutations = [];
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
            const wanted = refs.map((r) => resolve(r).value);
            const missing = wanted.filter((v) => { const u = liveUuid(v); return u === undefined || !current.includes(u); });
            const wantedIds = refs.map(refId);
            const unwanted = current.filter((u) => u in known && !wantedIds.includes(known[u]));
            if (unwanted.length > 0) mutations.push(mutation(name, "delete", set(unwanted.map((u) => uuid(u)))));
            if (missing.length > 0) mutations.push(mutation(name, "insert", set(missing)));
        }
        if (mutations.length > 0) {
            changes.push(mutate(spec.table, where_, mutations));
            changed = true;
        }
        if (changed) plan.updated.push(spec.key);
    }

    // Attach each non-root row to its parent (new rows always, existing ones if they came loose).
    for (const spec of specs) {
        if (!spec.parent) continue;
        const holder = parentOf(spec.table);
        if (!holder || holder.table !== spec.parent.table) throw new Error(`internal: ${spec.table} row "${spec.key}" cannot hang on ${spec.parent.table}`);
        const parent = resolve(spec.parent);
        const child = handle[spec.key];
        const parentInsert = spec.parent.group === group ? inserts[spec.parent.key] : undefined;
        if (parentInsert) {
            const members = setAtoms(parentInsert[holder.column]);
            parentInsert[holder.column] = set([...members, child]);
            continue;
        }
        const live = matched[spec.key];
        const attached =
            live !== undefined &&
            parent.live !== undefined &&
            (spec.parent.group === group ? uuidTexts(parent.live.row[holder.column]).includes(live.uuid) : snapshot.attached?.[live.uuid] === true);
        if (attached) continue;
        changes.push(mutate(holder.table, [where("_uuid", "==", parent.value)], [mutation(holder.column, "insert", set([child]))]));
        if (live) {
            // It hangs elsewhere (moved by hand): take it out of the wrong parent.
            changes.push(
                mutate(holder.table, [where(holder.column, "includes", uuid(live.uuid)), where("_uuid", "!=", parent.value)], [mutation(holder.column, "delete", uuid(live.uuid))]),
            );
            if (!plan.updated.includes(spec.key)) plan.updated.push(spec.key);
        }
    }

    // Rows no spec wants: left over from an earlier model, duplicated, or the whole group on delete.
    const blocked: ForeignChildrenError["blocked"] = [];
    for (const row of extra) {
        plan.removed.push(row.key || row.uuid);
        if (isRoot(row.table)) {
            const held: Row = {};
            const foreign: { table: NbTable; uuid: string }[] = [];
            for (const column of childColumns(row.table)) {
                held[column] = row.row[column] ?? set([]);
                const table = childTable(row.table, column)!;
                for (const u of uuidTexts(row.row[column])) if (!ownUuids[u]) foreign.push({ table, uuid: u });
            }
            if (foreign.length > 0) blocked.push({ parent: { table: row.table, key: row.key, uuid: row.uuid }, children: foreign });
            if (Object.keys(held).length > 0) {
                guards[row.uuid] = wait(row.table, byUuid(row.uuid), { columns: Object.keys(held), until: "==", rows: [held], timeout: 0 });
            }
            changes.push(deleteRows(row.table, byUuid(row.uuid)));
        } else {
            const holder = parentOf(row.table)!;
            changes.push(mutate(holder.table, [where(holder.column, "includes", uuid(row.uuid))], [mutation(holder.column, "delete", uuid(row.uuid))]));
        }
    }

    if (blocked.length > 0) throw new ForeignChildrenError(blocked);

    const insertOps: Operation[] = specs.filter((spec) => inserts[spec.key]).map((spec) => insert(spec.table, inserts[spec.key], (handle[spec.key] as [string, string])[1]));
    // Guards alone change nothing: an already converged group needs no transaction at all.
    if (insertOps.length + changes.length > 0) plan.ops = [comment(`pulumi ${owner} ${group}`), ...Object.values(guards), ...insertOps, ...changes];
    return plan;
}
