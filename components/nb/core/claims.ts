// Which live rows are this group's. Tags alone can be copied onto any row, so the UUIDs recorded
// in the state (outputs `rows[<name>].uuid`, since schema version 2; ./record) decide first:
// - a key with a recorded UUID is that row (found by UUID, even if its tags were edited); any
//   other row carrying the key's tags is a claim this group did not make;
// - a key without one (a create, state of version 1, a commit whose reply was lost) is the one
//   row carrying its tags;
// - two claimants of one key are a conflict: nothing is adopted or deleted, the apply fails
//   naming every UUID, and the operator decides which row is a copy.
// Rows carrying the group's tags but no row key were not written by this code: never touched.
// Pure.
import type { LiveRow, Snapshot } from "./liveRow";
import type { RowSpec, RowState } from "./rows";
import type { NbTable } from "./tables";
import { TAG_GROUP, TAG_OWNER, TAG_ROW } from "./tags";

/** Row key → table and UUID as recorded in the state. */
export type Recorded = Record<string, { table: NbTable; uuid: string }>;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** The UUIDs of recorded rows (./record recordedStates) by row key; none in state of schema version 1. */
export function recordedRows(states: Record<string, RowState>): Recorded {
    const recorded: Recorded = {};
    for (const state of Object.values(states)) {
        if (typeof state.uuid === "string" && UUID.test(state.uuid))
            recorded[state.key] = { table: state.table as NbTable, uuid: state.uuid };
    }
    return recorded;
}

export interface Conflict {
    table: NbTable;
    key: string;
    /** The recorded row, and whether NB still has it. */
    recorded?: { uuid: string; present: boolean };
    /** Rows carrying the key's tags that are not the recorded row. */
    claimants: string[];
}

export interface Claims {
    /** Spec key → its live row. */
    matched: Record<string, LiveRow>;
    /** Rows of the group no spec wants (left over from an earlier model, or the whole group on delete). */
    extra: LiveRow[];
    conflicts: Conflict[];
}

export function claimRows(specs: readonly RowSpec[], snapshot: Snapshot): Claims {
    const wanted: Record<string, RowSpec> = {};
    for (const spec of specs) wanted[spec.key] = spec;
    const tagged: Record<string, LiveRow[]> = {};
    for (const row of snapshot.own) if (row.key !== "") (tagged[row.key] ??= []).push(row);
    const recorded = snapshot.recorded ?? {};
    const claims: Claims = { matched: {}, extra: [], conflicts: [] };
    const claim = (key: string, row: LiveRow) => {
        if (wanted[key]?.table === row.table) claims.matched[key] = row;
        else claims.extra.push(row);
    };
    for (const key of [...new Set([...Object.keys(tagged), ...Object.keys(recorded)])].sort()) {
        const rows = tagged[key] ?? [];
        const rec = recorded[key];
        if (rec) {
            const claimants = rows.filter((r) => r.uuid !== rec.uuid).map((r) => r.uuid);
            if (claimants.length > 0)
                claims.conflicts.push({ table: rec.table, key, recorded: { uuid: rec.uuid, present: rec.row !== undefined }, claimants });
            // Kept even in conflict: `read` reports it, `reconcile` refuses anyway.
            if (rec.row) claim(key, { ...rec.row, key });
        } else if (rows.length > 1) claims.conflicts.push({ table: rows[0].table, key, claimants: rows.map((r) => r.uuid).sort() });
        else if (rows.length === 1) claim(key, rows[0]);
    }
    return claims;
}

export function conflictText(owner: string, group: string, conflicts: readonly Conflict[]): string {
    const tags = (key: string) => `${TAG_OWNER}=${owner}, ${TAG_GROUP}=${group}, ${TAG_ROW}=${key}`;
    const parts = conflicts.map((c) => {
        const rows = c.claimants.join(" and ");
        if (!c.recorded) return `${c.table} rows ${rows} all carry the tags of row "${c.key}" (${tags(c.key)})`;
        const mine = c.recorded.present
            ? `the row this resource created is ${c.recorded.uuid}`
            : `the row this resource created (${c.recorded.uuid}) is gone`;
        return `${c.table} row "${c.key}": ${mine}, yet ${rows} carries its tags (${tags(c.key)})`;
    });
    return (
        `${parts.join("; ")}. Nothing was changed or deleted: remove the pulumi-owner/pulumi-group/pulumi-row external_ids ` +
        "from the rows that are copies (or delete those rows), then run again"
    );
}
