// The OVN Northbound tables this stack writes, and what the reconciler needs to know of each from
// the schema (./schema.gen): root rows live on their own; non-root rows live only while a parent's
// reference set holds them (OVSDB garbage-collects them otherwise), so they are inserted into and
// removed from that set rather than inserted and deleted on their own.

import { NB_PARENTS, type NbSchemaTable } from "./schema.gen";

export const NB_DB = "OVN_Northbound";

/** The tables this stack writes; each must be a table of the OVN schema (./schema.gen). */
type SchemaTables<T extends NbSchemaTable> = T;
export type NbTable = SchemaTables<
    | "Logical_Switch"
    | "Logical_Switch_Port"
    | "Logical_Router"
    | "Logical_Router_Port"
    | "Logical_Router_Static_Route"
    | "NAT"
    | "Load_Balancer"
>;

/** Every table of NbTable, in the order a reader lists them. */
export const NB_TABLES: readonly NbTable[] = [
    "Logical_Switch",
    "Logical_Switch_Port",
    "Logical_Router",
    "Logical_Router_Port",
    "Logical_Router_Static_Route",
    "NAT",
    "Load_Balancer",
];
const owned = (table: NbSchemaTable): table is NbTable => (NB_TABLES as readonly string[]).includes(table);

/** For a non-root table: the table of this stack and its strong-reference column that hold its rows. */
export function parentOf(table: NbTable): { table: NbTable; column: string } | undefined {
    const holders = (NB_PARENTS[table] ?? []).filter((h) => owned(h.table));
    if (holders.length > 1)
        throw new Error(
            `${table} rows are held by several tables of this stack: ${holders.map((h) => `${h.table}.${h.column}`).join(", ")}`,
        );
    return holders[0] as { table: NbTable; column: string } | undefined;
}

export const isRoot = (table: NbTable): boolean => parentOf(table) === undefined;

/** The strong-reference columns of a table that hold rows of this stack's non-root tables (whoever owns them). */
export const childColumns = (table: NbTable): string[] =>
    NB_TABLES.filter((t) => parentOf(t)?.table === table).map((t) => parentOf(t)!.column);

/** The non-root table whose rows a table's child column holds. */
export const childTable = (table: NbTable, column: string): NbTable | undefined =>
    NB_TABLES.find((t) => parentOf(t)?.table === table && parentOf(t)?.column === column);
