// Desired NB rows as plain data, and the canonical state of a row that outputs record and
// `diff` compares. A row spec says which parts of the row this stack manages and how:
// - `columns`: owned whole (name, type, mac, networks, addresses, …); a different live value is drift.
// - `maps`: only the listed keys of external_ids/options/other_config; other writers' keys stay.
// - `refs`: only the listed members of a reference set (load_balancer); other members stay.
// - `parent`: for non-root rows, the row whose reference set must hold this one.
import type { NbTable } from "./tables";
import { ownerTags } from "./tags";

/** A row of some group, by its stable key. */
export interface RowRef {
    group: string;
    key: string;
    table: NbTable;
}

export interface RowSpec {
    key: string;
    table: NbTable;
    /** Scalar string columns as strings; set and optional columns as arrays (order is not kept by OVSDB). */
    columns: Record<string, string | string[]>;
    maps: Record<string, Record<string, string>>;
    refs: Record<string, RowRef[]>;
    parent?: RowRef;
}

/** A managed cell as recorded in outputs: strings, sorted string arrays, string maps. */
export type Cell = string | string[] | Record<string, string>;

/** One row as outputs record it and refresh reports it. */
export interface RowState {
    table: string;
    columns: Record<string, Cell>;
    /** The row's UUID in NB (schema version 2): the row is this one, whatever tags others copy (./claims). Not part of diffs. */
    uuid?: string;
}

export const refId = (ref: Pick<RowRef, "group" | "key">) => `${ref.group}:${ref.key}`;

/** Builds a spec whose external_ids carry the ownership tags next to the given keys. */
export function rowSpec(
    owner: string,
    group: string,
    key: string,
    table: NbTable,
    parts: { columns: RowSpec["columns"]; maps?: RowSpec["maps"]; refs?: RowSpec["refs"]; parent?: RowRef },
): RowSpec {
    const maps = { ...(parts.maps ?? {}) };
    maps.external_ids = { ...(maps.external_ids ?? {}), ...ownerTags(owner, group, key) };
    const spec: RowSpec = { key, table, columns: parts.columns, maps, refs: parts.refs ?? {} };
    if (parts.parent) spec.parent = parts.parent;
    return spec;
}

export const sortedCopy = (values: readonly string[]) => [...values].sort();

export function sortedRecord(record: Readonly<Record<string, string>>): Record<string, string> {
    const out: Record<string, string> = {};
    for (const k of Object.keys(record).sort()) out[k] = record[k];
    return out;
}

/** The state a spec asks for, in the same shape as a live row projected by ./liveState. */
export function specState(spec: RowSpec): RowState {
    const columns: Record<string, Cell> = {};
    for (const [name, value] of Object.entries(spec.columns)) columns[name] = typeof value === "string" ? value : sortedCopy(value);
    for (const [name, value] of Object.entries(spec.maps)) columns[name] = sortedRecord(value);
    for (const [name, refs] of Object.entries(spec.refs)) columns[name] = sortedCopy(refs.map(refId));
    return { table: spec.table, columns };
}

/** The states `specs` ask for; with `uuids` (row key → UUID), the states of the rows that hold them. */
export function specStates(specs: readonly RowSpec[], uuids: Record<string, string> = {}): Record<string, RowState> {
    const out: Record<string, RowState> = {};
    for (const spec of specs) out[spec.key] = uuids[spec.key] === undefined ? specState(spec) : { ...specState(spec), uuid: uuids[spec.key] };
    return out;
}

/** Deep equality of JSON-like values (cells, states); arrays by order, objects by key set. */
export function sameValue(a: unknown, b: unknown): boolean {
    if (a === b) return true;
    if (Array.isArray(a) || Array.isArray(b)) {
        if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
        return a.every((x, i) => sameValue(x, b[i]));
    }
    if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
    const ak = Object.keys(a as object);
    const bk = Object.keys(b as object);
    if (ak.length !== bk.length) return false;
    return ak.every((k) => Object.prototype.hasOwnProperty.call(b, k) && sameValue((a as any)[k], (b as any)[k]));
}
