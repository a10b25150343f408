// What would stop a destroy halfway: read before anything is deleted, so that a destroy either
// runs to the end or does not start. Two kinds of blockers:
// - an NB group whose delete would refuse: its rows carry claims this stack did not make
//   (./../nb/claims), or a root row it deletes still holds rows nobody in this stack owns (a
//   port that ovnkube, an operator or a hand-made pod put on an owned switch). The rule is the
//   delete path's own (../nb/rowChanges removalSteps), applied with every group of the stack
//   counted as owned, because destroy deletes them all (the cluster router holds every node's
//   router port until that node's group is gone);
// - a host whose delete scripts could not run: nothing answers, the login fails, or it presents
//   another key than the pinned one.
// Provider code: runs from the serialized copy, captures only plain data and functions.
import type { SshTarget } from "../model/types";
import { mapToRecord, setAtoms, uuid } from "../ovsdb/encoding";
import { select, where } from "../ovsdb/operations";
import type { OvsdbTransactor } from "../ovsdb/client";
import { claimRows, conflictText } from "../nb/claims";
import { errorText } from "../nb/errors";
import { Watched } from "../nb/guards";
import { kindOf } from "../nb/kinds";
import type { NbConnection } from "../nb/kinds/common";
import { removalSteps, type Blocked } from "../nb/rowChanges";
import { withNb } from "../nb/session";
import { parseSnapshot, snapshotOps, type ReadPlan, type Snapshot } from "../nb/snapshot";
import { NB_DB } from "../nb/tables";
import { TAG_GROUP } from "../nb/tags";
import { connectSsh } from "../ssh/connect";
import { redactKey } from "../ssh/errors";

/** An NB group the stack owns, as its resource's type names it (`NodeSwitch`, `node/node1`). */
export interface OwnedGroup {
    type: string;
    group: string;
}

/** A host whose delete scripts run over SSH: its name (for messages) and how it is reached. */
export interface GuardedHost {
    name: string;
    ssh: SshTarget;
}

const readPlanOf = (owner: string, g: OwnedGroup): ReadPlan => ({ owner, group: g.group, tables: [...kindOf(g.type).tables], foreign: [], recorded: {} });

/** Every group's rows by its tags, in one read-only transaction. */
async function snapshots(session: OvsdbTransactor, owner: string, groups: readonly OwnedGroup[]): Promise<Snapshot[]> {
    const plans = groups.map((g) => readPlanOf(owner, g));
    const results = await session.transact(NB_DB, plans.flatMap(snapshotOps));
    let next = 0;
    return plans.map((plan) => {
        const mine = results.slice(next, next + plan.tables.length);
        next += plan.tables.length;
        return parseSnapshot(plan, mine);
    });
}

/** Per group: conflicting claims (already worded) and roots holding rows no group of the stack owns. Pure. */
export function groupRefusals(owner: string, groups: readonly OwnedGroup[], found: readonly Snapshot[]): { group: OwnedGroup; conflicts?: string; blocked: Blocked[] }[] {
    const stackRows: Record<string, true> = {};
    for (const s of found) for (const row of s.own) stackRows[row.uuid] = true;
    return groups.map((group, i) => {
        const { extra, conflicts } = claimRows([], found[i]);
        const { blocked } = removalSteps(extra, stackRows, new Watched());
        return { group, blocked, ...(conflicts.length > 0 ? { conflicts: conflictText(owner, group.group, conflicts) } : {}) };
    });
}

/** How an operator recognises a row: its name (or prefix, or address), and whose it is. */
function childName(table: string, uuidText: string, row: Record<string, unknown> | undefined): string {
    if (!row) return `${table} ${uuidText} (gone)`;
    const label = setAtoms((row.name ?? row.ip_prefix ?? row.logical_ip) as never)[0] ?? uuidText;
    const group = mapToRecord(row.external_ids as never)[TAG_GROUP];
    return `${table} ${String(label)}${group ? ` of ${group}` : " (not created by Pulumi)"}`;
}

/** The NB blockers, one line per group, reading NB only. */
export async function nbBlockers(nb: NbConnection, owner: string, groups: readonly OwnedGroup[]): Promise<string[]> {
    if (groups.length === 0) return [];
    return withNb(nb, async (session) => {
        const refusals = groupRefusals(owner, groups, await snapshots(session, owner, groups));
        const children = refusals.flatMap((r) => r.blocked.flatMap((b) => b.children));
        const rows = children.length === 0 ? [] : await session.transact(NB_DB, children.map((c) => select(c.table, [where("_uuid", "==", uuid(c.uuid))])));
        let next = 0;
        const lines: string[] = [];
        for (const r of refusals) {
            const parts = r.conflicts ? [r.conflicts] : [];
            for (const b of r.blocked) {
                const held = b.children.map((c, i) => childName(c.table, c.uuid, rows[next + i]?.rows[0]));
                next += b.children.length;
                parts.push(`${b.parent.table} row "${b.parent.key}" still holds ${held.join(", ")}`);
            }
            if (parts.length > 0) lines.push(`${r.group.type} ${r.group.group}: cannot delete: ${parts.join("; ")}`);
        }
        return lines;
    });
}

/** One line per host that cannot be logged into with the pinned key; [] when every host answers. */
export async function hostBlockers(hosts: readonly GuardedHost[], privateKey: string): Promise<string[]> {
    const found = await Promise.all(
        hosts.map(async (h) => {
            try {
                const session = await connectSsh(h.ssh, privateKey, () => {});
                session.client.end();
                return undefined;
            } catch (err) {
                return `host ${h.name}: ${redactKey(await errorText(err, { ssh: h.ssh }), privateKey)}`;
            }
        }),
    );
    return found.filter((line): line is string => line !== undefined);
}

/** Everything that would stop a destroy, NB first; an NB that cannot be read is a blocker too. */
export async function destroyBlockers(inputs: { nb?: NbConnection; owner: string; groups: readonly OwnedGroup[]; hosts: readonly GuardedHost[]; privateKey: string }): Promise<string[]> {
    const nb = inputs.nb
        ? await nbBlockers(inputs.nb, inputs.owner, inputs.groups).catch(async (err) => [
              `Northbound database: ${redactKey(await errorText(err, { ssh: inputs.nb!.ssh, socket: inputs.nb!.socket }), inputs.privateKey)}`,
          ])
        : [];
    return [...nb, ...(await hostBlockers(inputs.hosts, inputs.privateKey))];
}
