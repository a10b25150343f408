// Optimistic concurrency for one NB transaction. The reconciler decides from a snapshot read
// earlier; between that read and the commit anyone (ovnkube, an operator, another stack) may
// change NB. So every operation carries what it relies on:
// - a `wait` (RFC 7047 §5.2.6, until "==", timeout 0) that each row it touches still has the
//   UUID and the values of the columns the decision read, or that a key it inserts is still
//   unclaimed; a failed wait aborts the whole transaction, and the step names the row;
// - the row count an update/mutate/delete must report. The waits make any other count impossible
//   for operations by UUID; checking it anyway turns a broken assumption into an error instead of
//   recorded state.
// Pure; plain data only (captured into the serialized providers).
import { map, setAtoms, uuid, type Row } from "../../ovsdb/encoding";
import { wait, where, type Operation } from "../../ovsdb/operations";
import type { LiveRow } from "../core/snapshot";
import type { NbTable } from "../core/tables";
import { ownerTags } from "../core/tags";

/** A row as error messages name it: table, row key (and group when not the transaction's own), name, UUID. */
export interface RowLabel {
    table: NbTable;
    key: string;
    group?: string;
    name?: string;
    uuid?: string;
}

/** One operation and what it relies on. */
export interface Step {
    op: Operation;
    /** A wait: the row it guards; `absent` when it guards that no row claims a key yet. */
    guards?: { row: RowLabel; absent?: true };
    /** An update/mutate/delete: the row it changes and how many rows it must match ("one", or "some" for "wherever it hangs"). */
    counts?: { row: RowLabel; rule: "one" | "some" };
    /** An insert: the key of the row it creates (its UUID goes into the state). */
    inserts?: string;
}

export function labelOf(live: LiveRow, group?: string): RowLabel {
    const name = setAtoms(live.row.name)[0];
    const label: RowLabel = { table: live.table, key: live.key, uuid: live.uuid };
    if (typeof name === "string") label.name = name;
    if (group !== undefined) label.group = group;
    return label;
}

export function describeRow(row: RowLabel): string {
    const details = [row.name, row.group ? `of ${row.group}` : undefined, row.uuid ? `uuid ${row.uuid}` : undefined].filter(
        (d) => d !== undefined,
    );
    return `${row.table} row "${row.key}"${details.length > 0 ? ` (${details.join(", ")})` : ""}`;
}

/**
 * The rows a transaction touches, each with the columns its decision read; `steps()` turns them
 * into one wait per row. Columns the snapshot did not read (foreign rows hold only `_uuid` and
 * `external_ids`) are left out: those rows are guarded by their existence.
 */
export class Watched {
    private rows: Record<string, { live: LiveRow; label: RowLabel; columns: Record<string, true> }> = {};

    watch(live: LiveRow, columns: readonly string[], label: RowLabel = labelOf(live)): void {
        const entry = (this.rows[live.uuid] ??= { live, label, columns: {} });
        for (const c of columns) if (live.row[c] !== undefined) entry.columns[c] = true;
    }

    steps(): Step[] {
        return Object.values(this.rows).map(({ live, label, columns }) => {
            const row: Row = { _uuid: uuid(live.uuid) };
            for (const c of Object.keys(columns).sort()) row[c] = live.row[c];
            const op = wait(live.table, [where("_uuid", "==", uuid(live.uuid))], {
                columns: Object.keys(row),
                until: "==",
                rows: [row],
                timeout: 0,
            });
            return { op, guards: { row: label } };
        });
    }
}

/** A wait that no row of `table` carries the tags of `key` yet: the insert would make a second one. */
export function unclaimed(table: NbTable, owner: string, group: string, key: string): Step {
    const op = wait(table, [where("external_ids", "includes", map(ownerTags(owner, group, key)))], {
        columns: ["_uuid"],
        until: "==",
        rows: [],
        timeout: 0,
    });
    return { op, guards: { row: { table, key }, absent: true } };
}
