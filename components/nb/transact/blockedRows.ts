// How an operator recognises the rows that stop a delete: the row a group would delete and the
// rows of others it still holds, each by its name (or prefix, or address) and whose it is. Used
// by a group's own delete and by the checks that run before a destroy or a node's removal, so
// both word a blocker the same way.
import type { OvsdbTransactor } from "../../ovsdb/client";
import { mapToRecord, setAtoms, uuid } from "../../ovsdb/encoding";
import { select, where } from "../../ovsdb/operations";
import type { Blocked } from "./rowChanges";
import { NB_DB } from "../core/tables";
import { TAG_GROUP } from "../core/tags";

/** One line per blocked row, e.g. `Logical_Switch row "switch" still holds Logical_Switch_Port demo_a (not created by Pulumi)`. One read. */
export async function describeBlocked(session: OvsdbTransactor, blocked: readonly Blocked[]): Promise<string[]> {
    const children = blocked.flatMap((b) => b.children);
    if (children.length === 0) return [];
    const results = await session.transact(
        NB_DB,
        children.map((c) => select(c.table, [where("_uuid", "==", uuid(c.uuid))])),
    );
    const names = results.map((r, i) => {
        const row = r.rows[0];
        if (!row) return `${children[i].table} ${children[i].uuid} (gone)`;
        const label = setAtoms(row.name ?? row.ip_prefix ?? row.logical_ip)[0] ?? children[i].uuid;
        const owner = mapToRecord(row.external_ids)[TAG_GROUP];
        return `${children[i].table} ${String(label)}${owner ? ` of ${owner}` : " (not created by Pulumi)"}`;
    });
    let next = 0;
    return blocked.map((b) => {
        const held = names.slice(next, next + b.children.length);
        next += b.children.length;
        return `${b.parent.table} row "${b.parent.key}" still holds ${held.join(", ")}`;
    });
}
