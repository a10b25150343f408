// Live rows projected onto the shape of the desired state (./rows specState): the same columns,
// the same map keys, the same reference-set members, so that `read` reports drift as a plain
// difference of two values. Rows of the group that no spec asks for (left over, duplicated)
// and rows whose claim is in conflict appear under their own keys, so they show up as a
// difference too.
import { mapToRecord, setAtoms, uuidTexts, type Atom, type Value } from "../../ovsdb/encoding";
import { refId, sortedCopy, sortedRecord, type Cell, type RowSpec, type RowState } from "./rows";
import { claimRows } from "./claims";
import type { LiveRow, Snapshot } from "./snapshot";

const atomText = (atom: Atom) => (typeof atom === "string" ? atom : JSON.stringify(atom));

function cell(desired: string | string[], live: Value | undefined): Cell {
    const atoms = setAtoms(live).map(atomText);
    return typeof desired === "string" ? (atoms[0] ?? "") : sortedCopy(atoms);
}

/** uuid → refId for every row the snapshot knows (own rows by the key they are claimed for, foreign rows by theirs). */
export function knownRows(group: string, snapshot: Snapshot, matched: Record<string, LiveRow>): Record<string, string> {
    const known: Record<string, string> = {};
    for (const row of snapshot.own) known[row.uuid] = refId({ group, key: row.key });
    for (const [key, row] of Object.entries(matched)) known[row.uuid] = refId({ group, key });
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
        columns[name] = sortedCopy(
            uuidTexts(live.row[name])
                .filter((u) => u in known)
                .map((u) => known[u]),
        );
    }
    return { table: live.table, key: spec.key, columns, uuid: live.uuid };
}

/** A live row no spec claims, named as ./rowNames names rows: by its OVN name, else by its key. */
function strayName(row: LiveRow): string {
    const name = setAtoms(row.row.name).map(atomText)[0] ?? "";
    return `${row.table} ${name || row.key || "untagged"}@${row.uuid}`;
}

/**
 * The group as NB holds it: each claimed row (./claims) under its spec's OVN name, and every
 * other row carrying the group's tags (left over, or a claim in conflict) under
 * `<table> <name>@<uuid>`, so that it shows as a difference too.
 */
export function liveStates(group: string, specs: readonly RowSpec[], snapshot: Snapshot): Record<string, RowState> {
    const { matched, extra, conflicts } = claimRows(specs, snapshot);
    const known = knownRows(group, snapshot, matched);
    const states: Record<string, RowState> = {};
    for (const spec of specs) if (matched[spec.key]) states[spec.name] = projectRow(spec, matched[spec.key], known);
    const claimants: Record<string, true> = {};
    for (const c of conflicts) for (const u of c.claimants) claimants[u] = true;
    const unclaimed = snapshot.own.filter((row) => claimants[row.uuid] || row.key === "");
    for (const row of [...extra, ...unclaimed]) {
        const name = setAtoms(row.row.name).map(atomText)[0] ?? "";
        states[strayName(row)] = { table: row.table, key: row.key, columns: { name } };
    }
    return states;
}
