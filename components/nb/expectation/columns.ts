// The column paths an expectation may name: a plain column (`networks`, `mac`, `addresses`) or
// one key of a map column (`other_config:subnet`, `options:chassis`), as the OVN schema
// (../core/schema.gen) has them, so a misspelt column is refused before NB is asked. Reference
// columns (ports, nat, load_balancer, …) are left out: they hold row UUIDs, which no plan can
// know; expect the referenced rows themselves instead.
import type { ExpectTable } from "../core/rowKeys";
import { NB_COLUMNS } from "../core/schema.gen";

export interface ColumnPath {
    column: string;
    /** The map key, for paths into a map column. */
    key?: string;
}

const MAP_KEY = /^[A-Za-z0-9_][A-Za-z0-9_.:/-]{0,199}$/;

/** Parses `column` or `column:key` for a table; throws an Error saying what is allowed. */
export function parseColumnPath(table: ExpectTable, path: string): ColumnPath {
    const { plain, maps } = NB_COLUMNS[table];
    const colon = path.indexOf(":");
    const column = colon < 0 ? path : path.slice(0, colon);
    if (colon < 0 && plain.includes(column)) return { column };
    if (colon < 0 && maps.includes(column)) throw new Error(`${column} is a map column: name one key, as "${column}:<key>"`);
    if (colon >= 0 && maps.includes(column)) {
        const key = path.slice(colon + 1);
        if (!MAP_KEY.test(key))
            throw new Error(
                `the key after "${column}:" must be 1-200 of A-Z a-z 0-9 _ . : / - (not starting with a separator), got ${JSON.stringify(key)}`,
            );
        return { column, key };
    }
    if (colon >= 0 && plain.includes(column)) throw new Error(`${column} is not a map column of ${table}: write "${column}" alone`);
    const known = [...plain, ...maps.map((m) => `${m}:<key>`)].join(", ");
    throw new Error(`${table} has no column ${JSON.stringify(column)} that can be expected; one of: ${known}`);
}

/** The columns to read for a set of paths, once each. */
export const columnsOf = (paths: readonly ColumnPath[]) => [...new Set(paths.map((p) => p.column))].sort();
