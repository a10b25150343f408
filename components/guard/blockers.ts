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
//   another key than the pinned one;
// - in ovnkube mode, a node that is still a Kubernetes Node: ovnkube removes a node's rows (its
//   switch and gateway router, its chassis, its transit port in every other zone) only when the
//   Node is deleted, so a node leaving the stack first would leave them behind. Seen from an NB
//   that stays: the central's, or another zone's.
// Provider code: runs from the serialized copy, captures only plain data and functions.
import type { SshTarget } from "../model/sshTarget";
import { mapToRecord, setAtoms, uuid } from "../ovsdb/encoding";
import { select, where } from "../ovsdb/operations";
import type { OvsdbTransactor } from "../ovsdb/client";
import { describeBlocked } from "../nb/transact/blockedRows";
import { claimRows, conflictText } from "../nb/core/claims";
import { errorText } from "../nb/transact/nbErrors";
import { Watched } from "../nb/transact/guards";
import { kindOf } from "../nb/kinds";
import type { NbConnection } from "../nb/kinds/common";
import { removalSteps, type Blocked } from "../nb/transact/rowChanges";
import { withNb } from "../nb/transact/session";
import { parseSnapshot, snapshotOps, type ReadPlan, type Snapshot } from "../nb/core/snapshot";
import { NB_DB } from "../nb/core/tables";
import { transitSwitchPort } from "../model/names";
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

const readPlanOf = (owner: string, g: OwnedGroup): ReadPlan => ({
    owner,
    group: g.group,
    tables: [...kindOf(g.type).tables],
    foreign: [],
    recorded: {},
});

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

/** An ovnkube-mode node and the NB where ovnkube keeps its rows: the central's, or its own zone's. */
export interface OvnkubeNodeRecord {
    name: string;
    nb: NbConnection;
}

/** ovnkube's rows that name a node in an NB: its switch (the central's NB) and its transit port (another zone's). Pure. */
export const ovnkubeNodeRows = (node: string) => [
    { table: "Logical_Switch", name: node },
    { table: "Logical_Switch_Port", name: transitSwitchPort(node) },
];

/**
 * One line per node of `removing` that ovnkube still keeps in `nb` (an NB that stays), naming the
 * rows and the way: the Node goes from Kubernetes first, then ovnkube deletes its rows.
 */
export async function ovnkubeNodeBlockers(nb: NbConnection, removing: readonly string[]): Promise<string[]> {
    if (removing.length === 0) return [];
    const wanted = removing.flatMap((node) => ovnkubeNodeRows(node).map((row) => ({ node, ...row })));
    const results = await withNb(nb, (session) =>
        session.transact(
            NB_DB,
            wanted.map((w) => select(w.table, [where("name", "==", w.name)], ["name"])),
        ),
    );
    const present = wanted.filter((_, i) => ((results[i] as { rows?: unknown[] }).rows ?? []).length > 0);
    return removing.flatMap((node) => {
        const rows = present.filter((p) => p.node === node).map((p) => `${p.table} ${p.name}`);
        if (rows.length === 0) return [];
        return [
            `node ${node}: still a Kubernetes Node (ovnkube keeps its ${rows.join(" and ")} in the Northbound on ${nb.ssh.host}): ` +
                `drain it, stop its kubelet and delete it (kubectl drain ${node} --ignore-daemonsets --delete-emptydir-data; kubectl delete node ${node}); ` +
                `ovnkube then removes its rows`,
        ];
    });
}

/** What the guard is given: the stack's NB groups and hosts, and how to reach them. */
export interface GuardScope {
    /** How to reach NB; only when the stack writes NB groups (Pulumi mode). */
    nb?: NbConnection;
    owner: string;
    groups: readonly OwnedGroup[];
    hosts: readonly GuardedHost[];
    /** ovnkube mode: every node and the NB where ovnkube keeps it. */
    ovnkubeNodes?: readonly OvnkubeNodeRecord[];
    /** The SSH key, in state written before the guard named its config key. */
    privateKey?: string;
    /** The stack config key of the SSH key, which the provider reads from its configuration. */
    privateKeyConfig?: string;
}

const groupKey = (g: OwnedGroup) => `${g.type} ${g.group}`;

/** The groups and hosts of `olds` that `news` no longer lists: what a change deletes. A destroy removes them all. Pure. */
export function removedBy(
    olds: Pick<GuardScope, "groups" | "hosts">,
    news: Pick<GuardScope, "groups" | "hosts">,
): { groups: OwnedGroup[]; hosts: GuardedHost[] } {
    const keptGroups = new Set(news.groups.map(groupKey));
    const keptHosts = new Set(news.hosts.map((h) => h.name));
    return { groups: olds.groups.filter((g) => !keptGroups.has(groupKey(g))), hosts: olds.hosts.filter((h) => !keptHosts.has(h.name)) };
}

/**
 * ovnkube mode: the nodes of `olds` that `news` no longer lists, and an NB that stays to look for
 * them in (a node's kept in both; none on a destroy, where the whole cluster goes). Pure.
 */
export function ovnkubeNodesRemovedBy(
    olds: Pick<GuardScope, "ovnkubeNodes">,
    news: Pick<GuardScope, "ovnkubeNodes">,
): { names: string[]; seenFrom?: NbConnection } {
    const kept = new Map((news.ovnkubeNodes ?? []).map((n) => [n.name, n]));
    const names = (olds.ovnkubeNodes ?? []).filter((n) => !kept.has(n.name)).map((n) => n.name);
    const stays = (olds.ovnkubeNodes ?? []).find((n) => kept.has(n.name));
    return names.length > 0 && stays ? { names, seenFrom: kept.get(stays.name)!.nb } : { names: [] };
}

/** Per group being removed: conflicting claims (already worded) and roots holding rows no group of the stack owns. Pure. */
export function groupRefusals(
    owner: string,
    groups: readonly OwnedGroup[],
    found: readonly Snapshot[],
    removing: readonly OwnedGroup[] = groups,
): { group: OwnedGroup; conflicts?: string; blocked: Blocked[] }[] {
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
export async function nbBlockers(
    nb: NbConnection,
    owner: string,
    groups: readonly OwnedGroup[],
    removing: readonly OwnedGroup[] = groups,
): Promise<string[]> {
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
export async function removalBlockers(
    scope: GuardScope & { privateKey: string },
    removing: { groups: readonly OwnedGroup[]; hosts: readonly GuardedHost[]; ovnkubeNodes?: ReturnType<typeof ovnkubeNodesRemovedBy> },
): Promise<string[]> {
    const nb =
        scope.nb && removing.groups.length > 0
            ? await nbBlockers(scope.nb, scope.owner, scope.groups, removing.groups).catch(async (err) => [
                  `Northbound database: ${redactKey(await errorText(err, { ssh: scope.nb!.ssh, socket: scope.nb!.socket }), scope.privateKey)}`,
              ])
            : [];
    const seenFrom = removing.ovnkubeNodes?.seenFrom;
    const ovnkube = seenFrom
        ? await ovnkubeNodeBlockers(seenFrom, removing.ovnkubeNodes!.names).catch(async (err) => [
              `Northbound database on ${seenFrom.ssh.host}: ${redactKey(await errorText(err, { ssh: seenFrom.ssh, socket: seenFrom.socket }), scope.privateKey)}`,
          ])
        : [];
    return [...nb, ...ovnkube, ...(await hostBlockers(removing.hosts, scope.privateKey))];
}
