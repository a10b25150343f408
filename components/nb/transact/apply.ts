// What create/update, read and delete do against NB: read the group's rows (by the UUIDs the state
// recorded and by tag) in one read-only transaction, then (for create/update/delete) apply the
// reconciler's steps as ONE guarded transaction (./guards, ./commit). Create and update are the
// same thing: a create that finds rows of its group (a crash after the commit, an earlier run)
// adopts them instead of adding a second copy. It returns every row's UUID.
import type { OvsdbTransactor } from "../../ovsdb/client";
import { withoutKey } from "./session";
import { describeBlocked } from "./blockedRows";
import type { Recorded } from "../core/claims";
import { commit } from "./commit";
import { errorText } from "./nbErrors";
import { createFresh, rememberForeign } from "./freshCreate";
import type { NbConnection, NbKind } from "../kinds/common";
import { liveStates } from "../core/liveState";
import { ForeignChildrenError, reconcile, type ReconcilePlan } from "./reconcile";
import type { RowSpec, RowState } from "../core/rows";
import { attachmentChecks, foreignRefs, parseAttachment, parseSnapshot, snapshotOps, type ReadPlan, type Snapshot } from "../core/snapshot";
import { NB_DB } from "../core/tables";

async function snapshotOf(session: OvsdbTransactor, plan: ReadPlan): Promise<Snapshot> {
    return parseSnapshot(plan, await session.transact(NB_DB, snapshotOps(plan)));
}

function readPlan(kind: NbKind, owner: string, group: string, specs: readonly RowSpec[], recorded: Recorded): ReadPlan {
    return { owner, group, tables: [...kind.tables], foreign: foreignRefs(group, specs), recorded };
}

/**
 * Makes NB hold exactly `specs` for the group; returns row key → UUID of each. `database` names the NB
 * (SSH target and socket) for the remembered UUIDs of other groups' rows; `create` first tries
 * the one-round-trip path for a new group (./freshCreate). `recorded`: the rows the state holds.
 */
export async function applyGroup(
    kind: NbKind,
    session: OvsdbTransactor,
    at: { database: string; create: boolean },
    owner: string,
    group: string,
    specs: RowSpec[],
    recorded: Recorded,
): Promise<Record<string, string>> {
    const created = at.create ? await createFresh(kind, session, at.database, owner, group, specs) : undefined;
    if (created) return created;
    const snapshot = await snapshotOf(session, readPlan(kind, owner, group, specs, recorded));
    rememberForeign(at.database, owner, snapshot);
    // Only when rows of the group exist already (update, adoption): are they still where they belong?
    const checks = attachmentChecks(group, specs, snapshot);
    if (checks.length > 0)
        snapshot.attached = parseAttachment(
            checks,
            await session.transact(
                NB_DB,
                checks.map((c) => c.op),
            ),
        );
    const plan = reconcileOrExplain(owner, group, specs, snapshot, session);
    const inserted = await commit(session, plan.steps);
    return { ...plan.kept, ...inserted };
}

/** The live state of the group's rows in the shape of `specs`' state, or undefined when none exists. */
export async function readGroup(
    kind: NbKind,
    session: OvsdbTransactor,
    owner: string,
    group: string,
    specs: RowSpec[],
    recorded: Recorded,
): Promise<Record<string, RowState> | undefined> {
    const snapshot = await snapshotOf(session, readPlan(kind, owner, group, specs, recorded));
    const gone = snapshot.own.length === 0 && Object.values(snapshot.recorded ?? {}).every((r) => r.row === undefined);
    return gone ? undefined : liveStates(group, specs, snapshot);
}

/** Removes every row of the group and nothing else. */
export async function removeGroup(kind: NbKind, session: OvsdbTransactor, owner: string, group: string, recorded: Recorded): Promise<void> {
    const snapshot = await snapshotOf(session, readPlan(kind, owner, group, [], recorded));
    await commit(session, reconcileOrExplain(owner, group, [], snapshot, session).steps);
}

function reconcileOrExplain(owner: string, group: string, specs: RowSpec[], snapshot: Snapshot, session: OvsdbTransactor): ReconcilePlan {
    try {
        return reconcile(owner, group, specs, snapshot);
    } catch (err) {
        if (err instanceof ForeignChildrenError) throw new DeferredForeignChildren(err, session);
        throw err;
    }
}

/** Carries a ForeignChildrenError to `describe`, which names the rows (one more read). */
class DeferredForeignChildren extends Error {
    constructor(
        readonly foreign: ForeignChildrenError,
        readonly session: OvsdbTransactor,
    ) {
        super("rows of others would be deleted");
    }
}

async function nameForeignChildren(err: DeferredForeignChildren): Promise<string> {
    return `cannot delete: ${(await describeBlocked(err.session, err.foreign.blocked)).join("; ")}. Delete or move those first`;
}

/** An error message for the operator: which resource, what NB said, never the private key. */
export async function describe(kind: NbKind, group: string, err: unknown, nb: Partial<NbConnection> | undefined): Promise<Error> {
    let message = await errorText(err, { ssh: nb?.ssh, socket: nb?.socket });
    if (err instanceof DeferredForeignChildren) message = await nameForeignChildren(err).catch(() => message);
    if (/index on column "name"/.test(message)) {
        message +=
            " (a row with that name exists but is not tagged as this stack's: remove it, or add this resource's pulumi-owner/pulumi-group/pulumi-row external_ids to adopt it)";
    }
    const text = `${kind.type} ${group}: ${message}`;
    return new Error(withoutKey(text, nb));
}
