// Desired NB rows as plain data, and the canonical state of a row that outputs record and
// `diff` compares. A row spec says which parts of the row this stack manages and how:
// - `columns`: owned whole (name, type, mac, networks, addresses, …); a different live value is drift.
// - `maps`: only the listed keys of external_ids/options/other_config; other writers' keys stay.
// - `refs`: only the listed members of a reference set (load_balancer); other members stay.
// - `parent`: for non-root rows, the row whose reference set must hold this one.
// Row builders name columns through the types generated from the OVN schema (./schema.gen), so
// a column the schema does not have, or a value of the wrong shape, fails to compile.
import { rowName, type RowIdentity } from "./rowNames";
import type { NbRef, NbSchema } from "./schema.gen";
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
    /** The row's OVN name (./rowNames): the key of its state in outputs. */
    name: string;
    /** How ovn-kubernetes names the row: found by it on import. */
    identity: RowIdentity;
    /** Scalar string columns as strings; set and optional columns as arrays (order is not kept by OVSDB). */
    columns: Record<string, string | string[]>;
    maps: Record<string, Record<string, string>>;
    refs: Record<string, RowRef[]>;
    parent?: RowRef;
}

/** A managed cell as recorded in outputs: strings, sorted string arrays, string maps. */
export type Cell = string | string[] | Record<string, string>;

/** One row as outputs record it (under its OVN name) and refresh reports it. */
export interface RowState {
    table: string;
    /** The row's stable key in its group (schema version 3; earlier state keys `rows` by it). */
    key: string;
    columns: Record<string, Cell>;
    /** The row's UUID in NB (schema version 2): the row is this one, whatever tags others copy (./claims). Not part of diffs. */
    uuid?: string;
}

export const refId = (ref: Pick<RowRef, "group" | "key">) => `${ref.group}:${ref.key}`;

type Columns<T extends NbTable> = NbSchema[T];
/** Columns a spec owns whole: strings and string sets, typed by the schema (enums included). */
export type OwnedColumns<T extends NbTable> = {
    [C in keyof Columns<T> as Columns<T>[C] extends string | readonly string[] ? C : never]?: Columns<T>[C];
};
/** Map columns of string to string, of which a spec owns only the keys it lists. */
export type OwnedMaps<T extends NbTable> = {
    [
        C in keyof Columns<T> as Columns<T>[C] extends readonly unknown[] ? never : Columns<T>[C] extends Record<string, string> ? C : never
    ]?: Record<string, string>;
};
/** Reference-set columns, of which a spec owns only the members it lists. */
export type OwnedRefs<T extends NbTable> = {
    [C in keyof Columns<T> as Columns<T>[C] extends readonly NbRef<string>[] ? C : never]?: RowRef[];
};

export interface RowParts<T extends NbTable> {
    columns: OwnedColumns<T>;
    maps?: OwnedMaps<T>;
    refs?: OwnedRefs<T>;
    parent?: RowRef;
    /** NAT and static routes: the router's name, which names them (./rowNames). */
    router?: string;
}

function identityOf(
    table: NbTable,
    columns: Record<string, unknown>,
    externalIds: Record<string, string>,
    router: string | undefined,
): RowIdentity {
    const text = (column: string) => String(columns[column]);
    const on = () => {
        if (router === undefined) throw new Error(`internal: a ${table} row needs its router's name`);
        return router;
    };
    switch (table) {
        case "NAT":
            return { table, router: on(), type: text("type") as "snat", logicalIp: text("logical_ip") };
        case "Logical_Router_Static_Route":
            return { table, router: on(), ipPrefix: text("ip_prefix"), nexthop: text("nexthop") };
        case "Load_Balancer": {
            const first = Object.entries(externalIds)[0];
            if (!first) throw new Error("internal: an unnamed load balancer needs the external_ids key that marks it");
            return { table, externalId: first };
        }
        default:
            return { table, name: text("name") };
    }
}

/** Builds a spec whose external_ids carry the ownership tags next to the given keys. */
export function rowSpec<T extends NbTable>(owner: string, group: string, key: string, table: T, parts: RowParts<T>): RowSpec {
    const columns = parts.columns as RowSpec["columns"];
    const maps = { ...((parts.maps ?? {}) as RowSpec["maps"]) };
    const identity = identityOf(table, columns, maps.external_ids ?? {}, parts.router);
    maps.external_ids = { ...(maps.external_ids ?? {}), ...ownerTags(owner, group, key) };
    const spec: RowSpec = { key, table, name: rowName(identity), identity, columns, maps, refs: (parts.refs ?? {}) as RowSpec["refs"] };
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
    return { table: spec.table, key: spec.key, columns };
}

/** The states `specs` ask for, by OVN name; with `uuids` (row key → UUID), the states of the rows that hold them. */
export function specStates(specs: readonly RowSpec[], uuids: Record<string, string> = {}): Record<string, RowState> {
    const out: Record<string, RowState> = {};
    for (const spec of specs)
        out[spec.name] = uuids[spec.key] === undefined ? specState(spec) : { ...specState(spec), uuid: uuids[spec.key] };
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
