// The reconciler: a group's desired rows and its live snapshot in, the steps of ONE transaction
// out. Pure. What it emits and why:
// - new rows: `insert` with a uuid-name; a non-root row is added to its parent's reference set in
//   the same transaction (inside the parent's insert when the parent is new too, else a `mutate`),
//   because OVSDB garbage-collects a non-root row that no parent holds.
// - changed rows: `update` of the owned columns that differ; map keys and reference-set members
//   by `mutate`, so keys and members written by others (ovnkube, operators) stay.
// - rows no longer wanted: roots are deleted; non-root rows are removed from whatever set holds
//   them (`mutate … where <column> includes <uuid>`), which deletes them.
// - rows claimed twice (../core/claims): nothing at all; the apply fails naming every UUID.
// - guards (./guards): a wait (timeout 0) that every own row the transaction changes still has
//   the values the decision read, that no row has claimed a key being inserted, and that each
//   row of another group we attach to or refer to still exists; if any changed since the
//   snapshot, the whole transaction fails instead of half-applying.
import { map, namedUuid, set, setAtoms, uuid, uuidTexts, type Atom, type Row } from "../../ovsdb/encoding";
import { comment, insert, mutate, mutation, wait, where, type Operation } from "../../ovsdb/operations";
import { claimRows, conflictText } from "../core/claims";
import { labelOf, unclaimed, Watched, type Step } from "./guards";
import { knownRows } from "../core/liveState";
import { byUuid, changeOps, encode, removalSteps, type Blocked } from "./rowChanges";
import type { RowRef, RowSpec } from "../core/rows";
import { foreignRow, type LiveRow, type Snapshot } from "../core/snapshot";
import { parentOf, type NbTable } from "../core/tables";

export interface ReconcilePlan {
    /** The transaction, each operation with what it relies on (./guards); empty when NB holds the plan. */
    steps: Step[];
    /** The operations of `steps`, in order. */
    ops: Operation[];
    /** Row key → UUID of every existing row the plan keeps. */
    kept: Record<string, string>;
    inserted: string[];
    updated: string[];
    removed: string[];
}

/** Root rows this group would delete still hold rows of someone else; deleting them would take those along. */
export class ForeignChildrenError extends Error {
    readonly blocked: Blocked[];
    constructor(blocked: Blocked[]) {
        super(
            blocked
                .map(
                    (b) =>
                        `${b.parent.table} row "${b.parent.key}" (${b.parent.uuid}) still holds ${b.children.length} row(s) this resource does not own`,
                )
                .join("; "),
        );
        this.name = "ForeignChildrenError";
        this.blocked = blocked;
    }
}

function exists(live: LiveRow, group: string): Step {
    const op = wait(live.table, byUuid(live.uuid), { columns: ["_uuid"], until: "==", rows: [{ _uuid: uuid(live.uuid) }], timeout: 0 });
    return { op, guards: { row: labelOf(live, group) } };
}

export function reconcile(owner: string, group: string, specs: readonly RowSpec[], snapshot: Snapshot): ReconcilePlan {
    const { matched, extra, conflicts } = claimRows(specs, snapshot);
    if (conflicts.length > 0) throw new Error(conflictText(owner, group, conflicts));
    const known = knownRows(group, snapshot, matched);
    const ownUuids: Record<string, true> = {};
    for (const row of [...snapshot.own, ...Object.values(matched)]) ownUuids[row.uuid] = true;
    const watched = new Watched();

    // Existing rows are referred to by UUID, new ones by a uuid-name valid within the transaction.
    const handle: Record<string, Atom> = {};
    specs.forEach((spec, i) => (handle[spec.key] = matched[spec.key] ? uuid(matched[spec.key].uuid) : namedUuid(`row${i}`)));
    const ownSpec: Record<string, RowSpec> = {};
    for (const spec of specs) ownSpec[spec.key] = spec;

    const guards: Record<string, Step> = {};
    const changes: Step[] = [];
    const inserts: Record<string, Row> = {};
    const plan: ReconcilePlan = { steps: [], ops: [], kept: {}, inserted: [], updated: [], removed: [] };
    for (const [key, live] of Object.entries(matched)) plan.kept[key] = live.uuid;

    /** A referenced row: its value in this transaction and, when it exists already, its live row. */
    const resolve = (ref: RowRef): { value: Atom; live?: LiveRow } => {
        if (ref.group !== group) {
            const live = foreignRow(snapshot, ref, owner);
            guards[live.uuid] ??= exists(live, ref.group);
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
        if (ops.length === 0) continue;
        watched.watch(live, [...Object.keys(spec.columns), ...Object.keys(spec.maps), ...Object.keys(spec.refs)]);
        changes.push(...ops.map((op) => ({ op, counts: { row: labelOf(live), rule: "one" as const } })));
        plan.updated.push(spec.key);
    }

    // Attach each non-root row to its parent (new rows always, existing ones if they came loose).
    for (const spec of specs) {
        if (!spec.parent) continue;
        const holder = parentOf(spec.table);
        if (!holder || holder.table !== spec.parent.table)
            throw new Error(`internal: ${spec.table} row "${spec.key}" cannot hang on ${spec.parent.table}`);
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
            (spec.parent.group === group
                ? uuidTexts(parent.live.row[holder.column]).includes(live.uuid)
                : snapshot.attached?.[live.uuid] === true);
        if (attached) continue;
        // An own parent is guarded on the set the decision read; another group's by its existence.
        if (spec.parent.group === group) watched.watch(parent.live!, [holder.column]);
        const parentLabel = spec.parent.group === group ? labelOf(parent.live!) : labelOf(parent.live!, spec.parent.group);
        changes.push({
            op: mutate(holder.table, [where("_uuid", "==", parent.value)], [mutation(holder.column, "insert", set([child]))]),
            counts: { row: parentLabel, rule: "one" },
        });
        if (live) {
            // It hangs elsewhere (moved by hand): take it out of the wrong parent, whichever that is.
            watched.watch(live, []);
            const op = mutate(
                holder.table,
                [where(holder.column, "includes", uuid(live.uuid)), where("_uuid", "!=", parent.value)],
                [mutation(holder.column, "delete", uuid(live.uuid))],
            );
            changes.push({ op, counts: { row: labelOf(live), rule: "some" } });
            if (!plan.updated.includes(spec.key)) plan.updated.push(spec.key);
        }
    }

    // Rows no spec wants: left over from an earlier model, duplicated, or the whole group on delete.
    const removal = removalSteps(extra, ownUuids, watched);
    if (removal.blocked.length > 0) throw new ForeignChildrenError(removal.blocked);
    for (const row of extra) plan.removed.push(row.key || row.uuid);
    changes.push(...removal.steps);

    const fresh = specs.filter((spec) => inserts[spec.key]);
    const insertSteps: Step[] = fresh.map((spec) => ({
        op: insert(spec.table, inserts[spec.key], (handle[spec.key] as [string, string])[1]),
        inserts: spec.key,
    }));
    // Guards alone change nothing: an already converged group needs no transaction at all.
    if (insertSteps.length + changes.length === 0) return plan;
    const free = fresh.map((spec) => unclaimed(spec.table, owner, group, spec.key));
    plan.steps = [
        { op: comment(`pulumi ${owner} ${group}`) },
        ...Object.values(guards),
        ...watched.steps(),
        ...free,
        ...insertSteps,
        ...changes,
    ];
    plan.ops = plan.steps.map((s) => s.op);
    return plan;
}
