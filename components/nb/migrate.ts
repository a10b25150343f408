// Reading `rows` of state written by older code. Schema versions 1 and 2 keyed `rows` by the
// row's stable key and did not record the key in the row; version 3 keys them by OVN name
// (./rowNames) and records the key. The shape tells them apart row by row, so state that is
// half re-keyed (read by new code, not yet updated) reads the same. Pure.
import type { RowSpec, RowState } from "./rows";

/** `rows` of any version keyed by OVN name, each with its key; a key no spec has keeps its text. */
export function rowsByName(rows: Record<string, Partial<RowState>>, specs: readonly RowSpec[]): Record<string, RowState> {
    const nameOf: Record<string, string> = {};
    for (const spec of specs) nameOf[spec.key] = spec.name;
    const out: Record<string, RowState> = {};
    for (const [entry, state] of Object.entries(rows)) {
        if (typeof state?.key === "string") out[entry] = state as RowState;
        else out[nameOf[entry] ?? entry] = { ...(state as RowState), key: entry };
    }
    return out;
}
