// What would stop a destroy, or the removal of nodes, halfway: read before anything is deleted,
// so that the change either runs to the end or does not start. Two kinds of blockers:
// - an NB group whose delete would refuse: its rows carry claims this stack did not make
//   (./../nb/claims), or a root row it deletes still holds rows nobody in this stack owns (a
//   port that ovnkube, an operator or a hand-made pod put on an owned switch). The rule is the
//   delete path's own (../nb/rowChanges removalSteps), applied with every group of the stack
//   counted as owned: rows of groups that stay are no blocker of a group that goes, and a destroy
//   removes them all (the cluster router holds every node's router port until that node's group
//   is gone);
// - a host whose delete scripts could not run: nothing answers, the login fails, or it presents
//   another key than the pinned one.
// Provider code: runs from the serialized copy, captures only plain data and functions.
import type { SshTarget } from "../ssh/target";
import { mapToRecord, setAtoms, uuid } from "../ovsdb/encoding";
import { select, where } from "../ovsdb/operations";
import type { OvsdbTransactor } from "../ovsdb/client";
import { describeBlocked } from "../nb/blockedRows";
import { claimRows, conflictText } from "../nb/claims";
import { errorText } from "../nb/errors";
import { Watched } from "../nb/guards";
import { kindOf } from "../nb/kinds";
import type { NbConnection } from "../nb/kinds/common";
import { removalSteps, type Blocked } from "../nb/rowChanges";
import { withNb } from "../nb/session";
import { parseSnapshot, snapshotOps, type ReadPlan, type Snapshot } from "../nb/snapshot";
import { NB_DB } from "../nb/tables";
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
    /** Recorded for review and policy (a role change is a drain's business); absent in older state. */
    roles?: string[];
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

/** What the guard is given: the stack's NB groups and hosts, and how to reach them. */
export interface GuardScope {
    /** How to reach NB; only when the stack writes NB groups (Pulumi mode). */
    nb?: NbConnection;
    owner: string;
    groups: readonly OwnedGroup[];
    hosts: readonly GuardedHost[];
    privateKey: string;
}

const groupKey = (g: OwnedGroup) => `${g.type} ${g.group}`;

/** The groups and hosts of `olds` that `news` no longer lists: what a change deletes. A destroy removes them all. Pure. */
export function removedBy(olds: Pick<GuardScope, "groups" | "hosts">, news: Pick<GuardScope, "groups" | "hosts">): { groups: OwnedGroup[]; hosts: GuardedHost[] } {
    const keptGroups = new Set(news.groups.map(groupKey));
    const keptHosts = new Set(news.hosts.map((h) => h.name));
    return { groups: olds.groups.filter((g) => !keptGroups.has(groupKey(g))), hosts: olds.hosts.filter((h) => !keptHosts.has(h.name)) };
}

/** Per group being removed: conflicting claims (already worded) and roots holding rows no group of the stack owns. Pure. */
export function groupRefusals(owner: string, groups: readonly OwnedGroup[], found: readonly Snapshot[], removing: readonly OwnedGroup[] = groups): { group: OwnedGroup; conflicts?: string; blocked: Blocked[] }[] {
    const stackRows: Record<string, true> = {};
    for (const s of found) for (const row of s.own) stackRows[row.uuid] = true;
    const wanted = new Set(removing.map(groupKey));
    return groups.flatMap((group, i) => {
        if (!wanted.has(groupKey(group))) return [];
        const { extra, conflicts } = claimRows([], found[i]);
        const { blocked } = removalSteps(extra, stackRows, new Watched());
        return [{ group, blocked, ...(conflicts.length > 0 ? { conflicts: conflictText(owner, group.group, conflicts) } : {}) }];
    });
}

/** The NB blockers of the groups being removed, one line per group, reading NB only. */
export async function nbBlockers(nb: NbConnection, owner: string, groups: readonly OwnedGroup[], removing: readonly OwnedGroup[] = groups): Promise<string[]> {
    if (removing.length === 0) return [];
    return withNb(nb, async (session) => {
        const lines: string[] = [];
        for (const r of groupRefusals(owner, groups, await snapshots(session, owner, groups), removing)) {
            const parts = [...(r.conflicts ? [r.conflicts] : []), ...(await describeBlocked(session, r.blocked))];
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

/**
 * Everything that would stop the removal of `removing` (a destroy: everything in `scope`), NB
 * first; an NB that cannot be read is a blocker too, and so is a removed host that cannot be
 * reached, since its delete scripts run there.
 */
export async function removalBlockers(scope: GuardScope, removing: { groups: readonly OwnedGroup[]; hosts: readonly GuardedHost[] }): Promise<string[]> {
    const nb =
        scope.nb && removing.groups.length > 0
            ? await nbBlockers(scope.nb, scope.owner, scope.groups, removing.groups).catch(async (err) => [
                  `Northbound database: ${redactKey(await errorText(err, { ssh: scope.nb!.ssh, socket: scope.nb!.socket }), scope.privateKey)}`,
              ])
            : [];
    return [...nb, ...(await hostBlockers(removing.hosts, scope.privateKey))];
}
