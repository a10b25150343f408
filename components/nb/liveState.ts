// Live rows projected onto the shape of the desired state (./rows specState): the same columns,
// the same map keys, the same reference-set members, so that `read` reports drift as a plain
// difference of two values. Rows of the group that no spec asks for (left over, duplicated)
// appear under their own keys, so they show up as a difference too.
import { mapToRecord, setAtoms, uuidTexts, type Atom, type Value } from "../ovsdb/encoding";
import { refId, sortedCopy, sortedRecord, type Cell, type RowSpec, type RowState } from "./rows";
import type { LiveRow, Snapshot } from "./snapshot";

const atomText = (atom: Atom) => (typeof atom === "string" ? atom : JSON.stringify(atom));

function cell(desired: string | string[], live: Value | undefined): Cell {
    const atoms = setAtoms(live).map(atomText);
    return typeof desired === "string" ? (atoms[0] ?? "") : sortedCopy(atoms);
}

/** uuid → refId for every row the snapshot knows (own rows by their key, foreign rows by theirs). */
export function knownRows(group: string, snapshot: Snapshot): Record<string, string> {
    const known: Record<string, string> = {};
    for (const row of snapshot.own) known[row.uuid] = refId({ group, key: row.key });
    for (const [id, rows] of Object.entries(snapshot.foreign)) for (const row of rows) known[row.uuid] = id;
    return known;
}

export function projectRow(spec: RowSpec, live: LiveRow, known: Record<string, string>): RowState {
    const columns: Record<string, Cell> = {};
    for (const [name, desired] of Object.entries(spec.columns)) columns[name] = cell(desired, live.row[name]);
    for (const [name, desired] of Object.entries(spec.maps)) {
        const all = mapToRecord(live.row[name]);
        const mine: Record<string, string> = {};
        for (const k of Object.keys(desired)) if (k in all) mine[k] = all[k];
        columns[name] = sortedRecord(mine);
    }
    for (const name of Object.keys(spec.refs)) {
        columns[name] = sortedCopy(uuidTexts(live.row[name]).filter((u) => u in known).map((u) => known[u]));
    }
    return { table: live.table, columns };
}

/** Each spec's live row: the first by UUID among those with its key (the others are duplicates). */
export function matchRows(specs: readonly RowSpec[], own: readonly LiveRow[]): { matched: Record<string, LiveRow>; extra: LiveRow[] } {
    const wanted: Record<string, RowSpec> = {};
    for (const spec of specs) wanted[spec.key] = spec;
    const matched: Record<string, LiveRow> = {};
    const extra: LiveRow[] = [];
    for (const row of [...own].sort((a, b) => (a.uuid < b.uuid ? -1 : 1))) {
        const spec = wanted[row.key];
        if (spec !== undefined && spec.table === row.table && matched[row.key] === undefined) matched[row.key] = row;
        else extra.push(row);
    }
    return { matched, extra };
}

export function liveStates(group: string, specs: readonly RowSpec[], snapshot: Snapshot): Record<string, RowState> {
    const known = knownRows(group, snapshot);
    const { matched, extra } = matchRows(specs, snapshot.own);
    const states: Record<string, RowState> = {};
    for (const spec of specs) if (matched[spec.key]) states[spec.key] = projectRow(spec, matched[spec.key], known);
    for (const row of extra) {
        const name = setAtoms(row.row.name).map(atomText)[0] ?? "";
        states[`${row.key || "untagged"}@${row.uuid}`] = { table: row.table, columns: { name } };
    }
    return states;
}
