// Live rows as ovsdb-server would return them for a set of specs (for the pure reconciler tests):
// every column encoded the server's way, references as UUIDs, children in their parents' sets.
import { map, set, uuid, type Row } from "../../../components/ovsdb/encoding";
import { refId, type RowSpec } from "../../../components/nb/core/rows";
import type { LiveRow, Snapshot } from "../../../components/nb/core/snapshot";
import { parentOf } from "../../../components/nb/core/tables";

let counter = 0;
export const fakeUuid = () => `00000000-0000-4000-8000-${(++counter).toString(16).padStart(12, "0")}`;

/** Live rows for `specs` of `group`, plus foreign rows for the refs given by id → uuid. */
export function liveFrom(group: string, specs: readonly RowSpec[], foreign: Record<string, LiveRow> = {}): Snapshot {
    const uuids: Record<string, string> = {};
    for (const s of specs) uuids[refId({ group, key: s.key })] = fakeUuid();
    for (const [id, row] of Object.entries(foreign)) uuids[id] = row.uuid;
    const own: LiveRow[] = specs.map((s) => {
        const row: Row = { _uuid: uuid(uuids[refId({ group, key: s.key })]) };
        for (const [k, v] of Object.entries(s.columns)) row[k] = typeof v === "string" ? v : set(v);
        for (const [k, v] of Object.entries(s.maps)) row[k] = map(v);
        for (const [k, refs] of Object.entries(s.refs)) row[k] = set(refs.map((r) => uuid(uuids[refId(r)])));
        return { uuid: uuids[refId({ group, key: s.key })], table: s.table, key: s.key, row };
    });
    const byId: Record<string, LiveRow> = {};
    const attached: Record<string, true> = {};
    for (const r of own) byId[refId({ group, key: r.key })] = r;
    for (const [id, r] of Object.entries(foreign)) byId[id] = r;
    for (const s of specs) {
        if (!s.parent) continue;
        const parent = byId[refId(s.parent)];
        const column = parentOf(s.table)!.column;
        const members = parent.row[column] ? (parent.row[column] as ["set", unknown[]])[1] : [];
        parent.row[column] = set([...(members as never[]), uuid(uuids[refId({ group, key: s.key })])]);
        if (s.parent.group !== group) attached[uuids[refId({ group, key: s.key })]] = true;
    }
    const foreignRows: Record<string, LiveRow[]> = {};
    for (const [id, r] of Object.entries(foreign)) foreignRows[id] = [r];
    return { own, foreign: foreignRows, attached };
}

export function foreignLive(table: LiveRow["table"], key: string, extra: Row = {}): LiveRow {
    const u = fakeUuid();
    return { uuid: u, table, key, row: { _uuid: uuid(u), ...extra } };
}
