// Create in one round trip when the group is new: the usual read before the write is replaced by
// guards inside the write itself, so the engine's many parallel creates cost one transaction
// each instead of two.
// - The rows of other groups a new group refers to (the cluster router and load balancers, the
//   join switch) are the same for every node: their UUIDs are remembered per database in this
//   process after a read, and the write waits (timeout 0) for each to still exist.
// - "Nothing of this group exists yet" is a wait for zero rows with the group's tags in every table
//   whose names are not unique; in the other tables (ports) a leftover row of the same name makes
//   the commit fail on the unique index instead.
// If any guard fails, nothing was written and the caller falls back to read-then-write, which
// adopts what exists. The remembered UUIDs live on globalThis (this runs serialized).
import type { OvsdbTransactor } from "../../ovsdb/client";
import { map, uuid } from "../../ovsdb/encoding";
import { wait, where, type OperationResult } from "../../ovsdb/operations";
import { committedRows } from "./commit";
import type { Step } from "./guards";
import type { NbKind } from "../kinds/common";
import { reconcile } from "./reconcile";
import { refId, type RowSpec } from "../core/rows";
import { foreignRefs, type LiveRow, type Snapshot } from "../core/snapshot";
import { NB_DB, type NbTable } from "../core/tables";
import { ownerTags } from "../core/tags";

/** Tables whose `name` is a unique index in NB: a duplicate there fails the commit by itself. */
const UNIQUE_NAMES: readonly NbTable[] = ["Logical_Switch_Port", "Logical_Router_Port"];

function remembered(): Record<string, string | undefined> {
    const holder = globalThis as unknown as Record<string, Record<string, string | undefined> | undefined>;
    return (holder["__ovnKubernetesAsCode_nbForeignRows"] ??= {});
}

const slot = (database: string, owner: string, id: string) => `${database}|${owner}|${id}`;

/** Remembers the UUIDs of the rows of other groups a read found (one row each, else nothing). */
export function rememberForeign(database: string, owner: string, snapshot: Snapshot): void {
    const cache = remembered();
    for (const [id, rows] of Object.entries(snapshot.foreign))
        cache[slot(database, owner, id)] = rows.length === 1 ? rows[0].uuid : undefined;
}

function forget(database: string): void {
    const cache = remembered();
    for (const key of Object.keys(cache)) if (key.startsWith(`${database}|`)) delete cache[key];
}

/** A failed guard or a name collision: nothing was written, the read-then-write path decides. */
function mustFallBack(err: unknown): boolean {
    const e = err as { name?: unknown; error?: unknown };
    return (
        (e?.name === "OvsdbOperationError" && e.error === "timed out") ||
        (e?.name === "OvsdbCommitError" && e.error === "constraint violation")
    );
}

/**
 * Creates the group in one transaction if it is new and the rows it refers to are known: row key →
 * UUID of each row; undefined when it did nothing.
 */
export async function createFresh(
    kind: NbKind,
    session: OvsdbTransactor,
    database: string,
    owner: string,
    group: string,
    specs: RowSpec[],
): Promise<Record<string, string> | undefined> {
    const cache = remembered();
    const foreign: Record<string, LiveRow[]> = {};
    for (const ref of foreignRefs(group, specs)) {
        const known = cache[slot(database, owner, refId(ref))];
        if (known === undefined) return undefined;
        foreign[refId(ref)] = [{ uuid: known, table: ref.table, key: ref.key, row: { _uuid: uuid(known) } }];
    }
    const plan = reconcile(owner, group, specs, { own: [], foreign, attached: {} });
    const nothingYet: Step[] = kind.tables
        .filter((t) => !UNIQUE_NAMES.includes(t))
        .map((t) => ({
            op: wait(t, [where("external_ids", "includes", map(ownerTags(owner, group)))], {
                columns: ["_uuid"],
                until: "==",
                rows: [],
                timeout: 0,
            }),
        }));
    const steps = [...nothingYet, ...plan.steps];
    let results: readonly OperationResult[];
    try {
        results = await session.transact(
            NB_DB,
            steps.map((s) => s.op),
        );
    } catch (err) {
        if (!mustFallBack(err)) throw err;
        forget(database);
        return undefined;
    }
    return committedRows(steps, results);
}
