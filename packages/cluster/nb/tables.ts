// The OVN Northbound tables this stack writes, and the one schema fact the reconciler needs about
// each: root rows live on their own, non-root rows live only while a parent's reference set
// holds them (OVSDB garbage-collects them otherwise), so they are inserted into and removed
// from that set rather than inserted and deleted on their own.
// Plain object literals only: this module is captured into the serialized dynamic providers.

import type { NbSchemaTable } from "./schema.gen";

export const NB_DB = "OVN_Northbound";

/** The tables this stack writes; each must be a table of the OVN schema (./schema.gen). */
type SchemaTables<T extends NbSchemaTable> = T;
export type NbTable = SchemaTables<"Logical_Switch" | "Logical_Switch_Port" | "Logical_Router" | "Logical_Router_Port" | "Logical_Router_Static_Route" | "NAT" | "Load_Balancer">;

/** For a non-root table: the parent table and the strong-reference column that holds its rows. */
export function parentOf(table: NbTable): { table: NbTable; column: string } | undefined {
    switch (table) {
        case "Logical_Switch_Port":
            return { table: "Logical_Switch", column: "ports" };
        case "Logical_Router_Port":
            return { table: "Logical_Router", column: "ports" };
        case "Logical_Router_Static_Route":
            return { table: "Logical_Router", column: "static_routes" };
        case "NAT":
            return { table: "Logical_Router", column: "nat" };
        default:
            return undefined;
    }
}

/** The strong-reference columns of a root table that hold non-root rows (whoever owns them). */
export function childColumns(table: NbTable): string[] {
    switch (table) {
        case "Logical_Switch":
            return ["ports"];
        case "Logical_Router":
            return ["ports", "static_routes", "nat"];
        default:
            return [];
    }
}

export const isRoot = (table: NbTable): boolean => parentOf(table) === undefined;

/** The non-root table whose rows a root table's child column holds. */
export function childTable(table: NbTable, column: string): NbTable | undefined {
    const candidates: NbTable[] = ["Logical_Switch_Port", "Logical_Router_Port", "Logical_Router_Static_Route", "NAT"];
    return candidates.find((t) => parentOf(t)?.table === table && parentOf(t)?.column === column);
}
