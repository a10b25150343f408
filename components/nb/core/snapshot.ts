// Reading a group's live rows: one read-only transaction with one select per table the group may
// own rows in (by its ownership tags), one per row the state recorded (by its UUID, see ./claims)
// and one per row of another group it refers to (by that group's tags and row key). Pure: builds
// the selects and parses their results.
import { map, mapToRecord, uuid, uuidText, type Row } from "../../ovsdb/encoding";
import { select, where, type SelectOp, type SelectResult } from "../../ovsdb/operations";
import { claimRows, type Recorded } from "./claims";
import { refId, type RowRef, type RowSpec } from "./rows";
import { parentOf, type NbTable } from "./tables";
import { ownerTags, TAG_ROW } from "./tags";
import type { LiveRow, Snapshot } from "./liveRow";

export type { LiveRow, Snapshot } from "./liveRow";

export interface ReadPlan {
    owner: string;
    group: string;
    tables: NbTable[];
    foreign: RowRef[];
    recorded: Recorded;
}

/** The rows of other groups that `specs` refer to (parents and reference-set members), once each. */
export function foreignRefs(group: string, specs: readonly RowSpec[]): RowRef[] {
    const found: Record<string, RowRef> = {};
    const add = (ref: RowRef) => {
        if (ref.group !== group) found[refId(ref)] = ref;
    };
    for (const spec of specs) {
        if (spec.parent) add(spec.parent);
        for (const refs of Object.values(spec.refs)) refs.forEach(add);
    }
    return Object.values(found);
}

export function snapshotOps(plan: ReadPlan): SelectOp[] {
    return [
        ...plan.tables.map((table) => select(table, [where("external_ids", "includes", map(ownerTags(plan.owner, plan.group)))])),
        ...plan.foreign.map((ref) =>
            select(
                ref.table,
                [where("external_ids", "includes", map(ownerTags(plan.owner, ref.group, ref.key)))],
                ["_uuid", "external_ids"],
            ),
        ),
        ...Object.values(plan.recorded).map((r) => select(r.table, [where("_uuid", "==", uuid(r.uuid))])),
    ];
}

function liveRow(table: NbTable, row: Row): LiveRow {
    return { uuid: uuidText(row._uuid), table, key: mapToRecord(row.external_ids)[TAG_ROW] ?? "", row };
}

export function parseSnapshot(plan: ReadPlan, results: readonly SelectResult[]): Snapshot {
    const own: LiveRow[] = [];
    plan.tables.forEach((table, i) => own.push(...results[i].rows.map((row) => liveRow(table, row))));
    const foreign: Record<string, LiveRow[]> = {};
    plan.foreign.forEach((ref, i) => {
        foreign[refId(ref)] = results[plan.tables.length + i].rows.map((row) => liveRow(ref.table, row));
    });
    const recorded: NonNullable<Snapshot["recorded"]> = {};
    Object.entries(plan.recorded).forEach(([key, r], i) => {
        const found = results[plan.tables.length + plan.foreign.length + i].rows[0];
        recorded[key] = found ? { ...r, row: liveRow(r.table, found) } : { ...r };
    });
    return { own, foreign, recorded };
}

/** The one live row a foreign reference names; a clear error when it is missing or ambiguous. */
export function foreignRow(snapshot: Snapshot, ref: RowRef, owner: string): LiveRow {
    const rows = snapshot.foreign[refId(ref)] ?? [];
    if (rows.length === 1) return rows[0];
    const what = `${ref.table} row "${ref.key}" of group ${ref.group} (owner ${owner})`;
    if (rows.length === 0) throw new Error(`${what} is not in the Northbound database: create that resource first`);
    throw new Error(`${what} exists ${rows.length} times (uuids ${rows.map((r) => r.uuid).join(", ")}): update that resource to repair it`);
}

/** Own non-root rows whose parent belongs to another group: is each still in that parent's set? */
export function attachmentChecks(group: string, specs: readonly RowSpec[], snapshot: Snapshot): { child: string; op: SelectOp }[] {
    const checks: { child: string; op: SelectOp }[] = [];
    const { matched } = claimRows(specs, snapshot);
    for (const spec of specs) {
        if (!spec.parent || spec.parent.group === group) continue;
        const child = matched[spec.key];
        const parent = snapshot.foreign[refId(spec.parent)];
        if (!child || parent?.length !== 1) continue;
        const column = parentOf(spec.table)!.column;
        const where_ = [where("_uuid", "==", uuid(parent[0].uuid)), where(column, "includes", uuid(child.uuid))];
        checks.push({ child: child.uuid, op: select(spec.parent.table, where_, ["_uuid"]) });
    }
    return checks;
}

export function parseAttachment(checks: readonly { child: string }[], results: readonly SelectResult[]): Record<string, true> {
    const attached: Record<string, true> = {};
    checks.forEach((c, i) => {
        if (results[i].rows.length > 0) attached[c.child] = true;
    });
    return attached;
}
