// How outputs record a group's rows, and reading that record back whatever version wrote it. Pure.
//
// Outputs hold the inputs too (a delete gets only the outputs), and the declared rows are a pure
// function of them (the kind's row builder). So schema version 4 records of each declared row
// only what the inputs cannot tell: its UUID (./claims) and each managed column whose live value
// differs from the declared one, under the row's OVN name:
//   rows["Logical_Switch_Port stor-node2"] = { uuid }                                 as declared
//   rows["Logical_Switch_Port stor-node2"] = { uuid, options: { "router-port": "x" } } drifted
// and nothing for a declared row that NB lacks. The engine's diff of a refresh then names the row
// and column (`rows["Logical_Switch_Port stor-node2"].options`), or the row when it went away.
// A row of the group that no spec declares (left over, or a claim in conflict) keeps the whole
// state (table, key, columns), under `<table> <name>@<uuid>` (./liveState). `declared`, a digest
// of the declared rows, goes beside the record: a newer package that declares other rows for the
// same inputs would otherwise read an unchanged record as rows in step with its own declaration,
// and its fix would not reach existing resources until some input changed.
//
// Earlier versions, told apart row by row by their shape, so that state half rewritten reads the
// same: 3 recorded every row whole with its `key`; 1 and 2 keyed `rows` by the key, not the name.
import { createHash } from "node:crypto";
import { sameValue, specState, specStates, type Cell, type RowSpec, type RowState } from "./rows";

/** One declared row as version 4 records it: its UUID, and the managed columns that differ. */
export type RowRecord = { uuid?: string } & { [column: string]: Cell | undefined };

const isWholeState = (v: unknown): v is Partial<RowState> & { table: string; columns: Record<string, Cell> } =>
    typeof v === "object" && v !== null && typeof (v as RowState).table === "string" && typeof (v as RowState).columns === "object";

/** The record of `states` (live rows under their OVN names) against what `specs` declare. */
export function recordRows(specs: readonly RowSpec[], states: Record<string, RowState>): Record<string, RowRecord | RowState> {
    const declared = new Map(specs.map((s) => [s.name, s]));
    const out: Record<string, RowRecord | RowState> = {};
    for (const [name, state] of Object.entries(states)) {
        const spec = declared.get(name);
        if (spec === undefined || spec.table !== state.table || spec.key !== state.key) {
            out[name] = state;
            continue;
        }
        const wanted = specState(spec).columns;
        const record: RowRecord = state.uuid === undefined ? {} : { uuid: state.uuid };
        for (const [column, value] of Object.entries(state.columns)) if (!sameValue(value, wanted[column])) record[column] = value;
        out[name] = record;
    }
    return out;
}

/** The record of rows that hold what `specs` declare (what an apply leaves), from row key → UUID: recordRows of their states, without comparing them. */
export function appliedRecord(specs: readonly RowSpec[], uuids: Readonly<Record<string, string>>): Record<string, RowRecord> {
    const out: Record<string, RowRecord> = {};
    for (const spec of specs) out[spec.name] = uuids[spec.key] === undefined ? {} : { uuid: uuids[spec.key] };
    return out;
}

/** Digest of the rows `specs` declare, recorded as `declared` beside the record. */
export const declaredDigest = (specs: readonly RowSpec[]): string =>
    createHash("sha256")
        .update(JSON.stringify(specStates(specs)))
        .digest("hex")
        .slice(0, 16);

/**
 * The rows a record stands for, whole and under their OVN names, given the specs of the inputs
 * recorded beside it (the same inputs that wrote it). A version 1/2 row's key no spec has keeps
 * its text as the name; a version 4 entry no spec declares cannot be read and is left out.
 */
export function recordedStates(rows: unknown, specs: readonly RowSpec[]): Record<string, RowState> {
    if (typeof rows !== "object" || rows === null) return {};
    const byName = new Map(specs.map((s) => [s.name, s]));
    const byKey = new Map(specs.map((s) => [s.key, s]));
    const out: Record<string, RowState> = {};
    for (const [entry, value] of Object.entries(rows as Record<string, unknown>)) {
        if (isWholeState(value)) {
            if (typeof value.key === "string") out[entry] = value as RowState;
            else out[byKey.get(entry)?.name ?? entry] = { ...(value as RowState), key: entry };
            continue;
        }
        const spec = byName.get(entry);
        if (spec === undefined || typeof value !== "object" || value === null) continue;
        const { uuid, ...drift } = value as RowRecord;
        const declared = specState(spec);
        const state: RowState = { ...declared, columns: { ...declared.columns, ...(drift as Record<string, Cell>) } };
        if (typeof uuid === "string") state.uuid = uuid;
        out[entry] = state;
    }
    return out;
}
