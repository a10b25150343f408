// How an expectation's rows are read: ONE read-only transaction with one narrow select per
// expected row (by name, or for NAT rows and routes by what tells them apart) plus one per router
// those hang on, reading only the expected columns. Not whole tables: every node has its own
// expectation, and N of them each reading every node's rows would cost N² at cluster scale.
// Pure: builds the selects and sorts their results back to the row keys.
import { setAtoms, uuidText, type Row } from "../../ovsdb/encoding";
import { select, where, type SelectOp, type SelectResult } from "../../ovsdb/operations";
import { columnsOf, parseColumnPath, type ColumnPath } from "./columns";
import { parseRowKey, type RowKey } from "../core/rowKeys";
import { parentOf } from "../core/tables";
import type { Cells } from "./cells";

export interface ExpectedRow {
    /** The row key as written, e.g. `Logical_Switch node2`. */
    text: string;
    key: RowKey;
    /** Column path as written → parsed. */
    paths: Record<string, ColumnPath>;
}

/** Parses checked rows (throws on a bad key or path, which `check` reports with its property path). */
export function parseExpectation(rows: Cells): ExpectedRow[] {
    return Object.entries(rows).map(([text, columns]) => {
        const key = parseRowKey(text);
        const paths: Record<string, ColumnPath> = {};
        for (const path of Object.keys(columns)) paths[path] = parseColumnPath(key.table, path);
        return { text, key, paths };
    });
}

export interface ReadPlan {
    rows: ExpectedRow[];
    /** Routers whose NAT rows or routes are expected, with the set column(s) to read. */
    routers: { name: string; columns: string[] }[];
    ops: SelectOp[];
}

/** The router's set column that holds a keyed child row. */
const holder = (key: RowKey) =>
    key.table === "NAT" || key.table === "Logical_Router_Static_Route" ? parentOf(key.table)!.column : undefined;

function rowSelect(row: ExpectedRow): SelectOp {
    const columns = columnsOf(Object.values(row.paths));
    const k = row.key;
    if (k.table === "NAT")
        return select("NAT", [where("type", "==", k.type), where("logical_ip", "==", k.logicalIp)], ["_uuid", ...columns]);
    if (k.table === "Logical_Router_Static_Route")
        return select(k.table, [where("ip_prefix", "==", k.ipPrefix), where("nexthop", "==", k.nexthop)], ["_uuid", ...columns]);
    return select(k.table, [where("name", "==", k.name)], columns);
}

export function readPlan(rows: ExpectedRow[]): ReadPlan {
    const held: Record<string, Record<string, true>> = {};
    for (const row of rows) {
        const column = holder(row.key);
        if (column !== undefined && "router" in row.key) (held[row.key.router] ??= {})[column] = true;
    }
    const routers = Object.keys(held)
        .sort()
        .map((name) => ({ name, columns: Object.keys(held[name]).sort() }));
    const ops = [...rows.map(rowSelect), ...routers.map((r) => select("Logical_Router", [where("name", "==", r.name)], r.columns))];
    return { rows, routers, ops };
}

/** Row key → the live rows it names (none, one, or several when the identity is ambiguous). */
export function matchRows(plan: ReadPlan, results: readonly SelectResult[]): Record<string, Row[]> {
    // UUIDs in each router's set columns; routers are not unique by name, so all of that name count.
    const inRouter: Record<string, Record<string, true>> = {};
    plan.routers.forEach((router, i) => {
        for (const live of results[plan.rows.length + i].rows) {
            for (const column of router.columns) {
                for (const atom of setAtoms(live[column])) (inRouter[`${router.name} ${column}`] ??= {})[uuidText(atom)] = true;
            }
        }
    });
    const found: Record<string, Row[]> = {};
    plan.rows.forEach((row, i) => {
        const column = holder(row.key);
        const rows = results[i].rows;
        if (column === undefined || !("router" in row.key)) found[row.text] = rows;
        else {
            const held = inRouter[`${row.key.router} ${column}`] ?? {};
            found[row.text] = rows.filter((live) => held[uuidText(live._uuid)] === true);
        }
    });
    return found;
}
