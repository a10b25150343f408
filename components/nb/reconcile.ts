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
import { map, namedUuid, set, setAtoms, uuid, uuidTexts, type Atom, type Row } from "../ovsdb/encoding";
import { comment, insert, mutate, mutation, wait, where, type Operation } from "../ovsdb/operations";
import { knownRows, matchRows } from "./liveState";
import { byUuid, changeOps, encode, removalOps, type Blocked } from "./rowChanges";
import type { RowRef, RowSpec } from "./rows";
import { foreignRow, type LiveRow, type Snapshot } from "./snapshot";
import { parentOf, type NbTable } from "./tables";

export interface ReconcilePlan {
    ops: Operation[];
    inserted: string[];
    updated: string[];
    removed: string[];
}

/** Root rows this group would delete still hold rows of someone else; deleting them would take those along. */
export class ForeignChildrenError extends Error {
    readonly blocked: Blocked[];
    constructor(blocked: Blocked[]) {
        super(blocked.map((b) => `${b.parent.table} row "${b.parent.key}" (${b.parent.uuid}) still holds ${b.children.length} row(s) this resource does not own`).join("; "));
        this.name = "ForeignChildrenError";
        this.blocked = blocked;
    }
}


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
        const ops = changeOps(spec, live, (column) => spec.refs[column].map((r) => resolve(r).value), known);
        changes.push(...ops);
        if (ops.length > 0) plan.updated.push(spec.key);
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
    const removal = removalOps(extra, ownUuids);
    if (removal.blocked.length > 0) throw new ForeignChildrenError(removal.blocked);
    for (const row of extra) plan.removed.push(row.key || row.uuid);
    changes.push(...removal.ops);

    const insertOps: Operation[] = specs.filter((spec) => inserts[spec.key]).map((spec) => insert(spec.table, inserts[spec.key], (handle[spec.key] as [string, string])[1]));
    // Guards alone change nothing: an already converged group needs no transaction at all.
    if (insertOps.length + changes.length > 0) plan.ops = [comment(`pulumi ${owner} ${group}`), ...Object.values(guards), ...removal.guards, ...insertOps, ...changes];
    return plan;
}
