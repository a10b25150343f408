// The NB database of a resource's inputs: one OVSDB session per (SSH target, socket) per process,
// carried by the SSH layer's pooled connection. Kept on globalThis, which a serialized copy of this
// code (state written before the provider stubs) shares, where a module-level Map would not.
//
// Not the SSH layer's PooledOvsdbClient: its `echo` before every transaction puts concurrent
// applies in lock-step (400 small transactions from 16 workers: 450 ms there, 77 ms here). A
// session found closed is handled by the call's shape instead: every call is "read, decide,
// write" from live state, so it runs again once on a fresh session, and a write that did commit
// is found by the read.
//
// Clustered NB (nb.members): calls go to the member `_Server` names the leader (all members asked
// at once), remembered until a failure a leader change explains (session closed, "not leader").
// The call then runs again on the new leader, which holds every committed transaction. A retry
// racing an old leader's late commit is stopped by the transaction's own waits (./guards),
// so it fails naming the row instead of writing twice.
import type { OvsdbTransactor } from "../../ovsdb/client";
import { isWritable, readServerDatabase, SERVER_DB, serverDatabaseQuery, type ServerDatabase } from "../../ovsdb/serverDatabase";
import { openOvsdbOverSsh, type OvsdbEndpoint } from "../../ssh/ovsdbChannel";
import { providerConfigValue } from "../../dynamic/providerConfig";
import { redactKey } from "../../ssh/errors";
import { acquireSsh, sshAddress } from "../../ssh/pool";
import type { NbConnection, NbMember } from "../kinds/common";

interface Held {
    client?: OvsdbTransactor;
    opening?: Promise<OvsdbTransactor>;
}

function sessions(): Record<string, Held | undefined> {
    const holder = globalThis as unknown as Record<string, Record<string, Held | undefined> | undefined>;
    const name = "__ovnKubernetesAsCode_nbSessions";
    return (holder[name] ??= {});
}

export function endpointOf(socket: string): OvsdbEndpoint {
    if (!socket.startsWith("tcp:")) return { unixSocket: socket };
    const [, host, port] = socket.split(":");
    return { tcpHost: host, tcpPort: Number(port) };
}

/**
 * The SSH key a connection logs in with: the one it carries (state written before
 * privateKeyConfig, or a program that passes the key), else the stack config value it names.
 */
export function privateKeyOf(nb: Pick<NbConnection, "privateKey" | "privateKeyConfig">): string {
    if (nb.privateKey) return nb.privateKey;
    const configured = nb.privateKeyConfig === undefined ? undefined : providerConfigValue(nb.privateKeyConfig);
    if (configured !== undefined) return configured;
    const key = nb.privateKeyConfig ?? "<project>:sshPrivateKey";
    throw new Error(
        `nb.privateKeyConfig: the provider's configuration has no ${key}: the NB resources log in with the SSH key of that stack config key (pulumi config set --secret ${key} < key-file)`,
    );
}

/** `text` with the connection's key taken out, whichever way it was given. */
export function withoutKey(text: string, nb: Partial<NbConnection> | undefined): string {
    let key: string | undefined;
    try {
        key = nb ? privateKeyOf(nb) : undefined;
    } catch {
        key = undefined;
    }
    return key ? redactKey(text, key) : text;
}

/** Names one NB database as this process reaches it: SSH target and socket. */
export const databaseOf = (nb: NbConnection) => `${sshAddress(nb.ssh)} ${nb.socket}`;
const keyOf = (nb: NbMember) => `${sshAddress(nb.ssh)} ${nb.socket}`;

async function session(nb: NbMember & { privateKey: string }): Promise<OvsdbTransactor> {
    const all = sessions();
    const held = (all[keyOf(nb)] ??= {});
    if (held.client && !held.client.closed) return held.client;
    held.opening ??= openOvsdbOverSsh(nb.ssh, nb.privateKey, endpointOf(nb.socket))
        .then((client) => (held.client = client))
        .finally(() => (held.opening = undefined));
    return held.opening;
}

function forget(nb: NbMember, client: OvsdbTransactor): void {
    const held = sessions()[keyOf(nb)];
    if (held?.client === client) held.client = undefined;
    client.close();
}

const closedUnderUs = (err: unknown, client: OvsdbTransactor) =>
    client.closed || (typeof err === "object" && err !== null && (err as { name?: unknown }).name === "OvsdbClosedError");

/** What a raft member answers when it stopped being the leader (or never was) mid-call. */
const leaderLost = (err: unknown) => /not leader|leadership|cluster error/i.test(String((err as { message?: unknown })?.message ?? err));

const NB_DB = "OVN_Northbound";
/** Longer than an election after a leader's death (election timer 1 s by default, a few rounds at worst). */
const LEADER_WAIT_MS = 30_000;
/** Calls run at most this many times on successive leaders. */
const CLUSTER_ATTEMPTS = 4;

/** The remembered leader of each clustered NB, by its first member's key (kept on globalThis as the sessions are). */
function leaders(): Record<string, number | undefined> {
    const holder = globalThis as unknown as Record<string, Record<string, number | undefined> | undefined>;
    const name = "__ovnKubernetesAsCode_nbLeaders";
    return (holder[name] ??= {});
}

/**
 * Each member's `_Server` view of NB (undefined: it does not hold NB), or why it could not be
 * asked. Tagged rather than `instanceof Error`: in the serialized provider the OVSDB errors'
 * classes do not inherit from the host's Error.
 */
export async function memberStates(nb: NbConnection): Promise<Array<{ db?: ServerDatabase; unreachable?: string }>> {
    return Promise.all(
        (nb.members ?? []).map(async (m) => {
            try {
                const client = await session({ ...m, privateKey: privateKeyOf(nb) });
                return { db: readServerDatabase(await client.transact(SERVER_DB, serverDatabaseQuery(NB_DB))) };
            } catch (err) {
                return { unreachable: String((err as { message?: unknown })?.message ?? err) };
            }
        }),
    );
}

/** Index in nb.members of the connected leader; waits out an election, then fails naming every member's state. */
async function findLeader(nb: NbConnection): Promise<number> {
    const deadline = Date.now() + LEADER_WAIT_MS;
    for (;;) {
        const states = await memberStates(nb);
        const found = states.findIndex((s) => s.unreachable === undefined && isWritable(s.db));
        if (found >= 0) return found;
        if (Date.now() > deadline) {
            const seen = states.map(({ db: s, unreachable }, i) => {
                const state =
                    unreachable !== undefined
                        ? `unreachable (${unreachable})`
                        : s === undefined
                          ? "has no OVN_Northbound"
                          : `${s.model}, ${s.connected ? "connected" : "disconnected"}, ${s.leader ? "leader" : "follower"}`;
                return `${sshAddress(nb.members![i].ssh)}: ${state}`;
            });
            throw new Error(`no leader of the clustered OVN_Northbound after ${LEADER_WAIT_MS / 1000} s: ${seen.join("; ")}`);
        }
        await new Promise((resolve) => setTimeout(resolve, 250));
    }
}

async function withLeader<T>(nb: NbConnection, work: (session: OvsdbTransactor) => Promise<T>): Promise<T> {
    const members = nb.members!;
    const key = keyOf(members[0]);
    for (let attempt = 1; ; attempt++) {
        const index = leaders()[key] ?? (leaders()[key] = await findLeader(nb));
        const member = { ...members[index], privateKey: privateKeyOf(nb) };
        const lease = await acquireSsh(member.ssh, member.privateKey);
        let client: OvsdbTransactor | undefined;
        try {
            client = await session(member);
            return await work(client);
        } catch (err) {
            // Opening failed (its server is gone), the session closed, or the member was deposed.
            const followable = client === undefined || closedUnderUs(err, client) || leaderLost(err);
            if (!followable || attempt >= CLUSTER_ATTEMPTS) throw err;
            if (client) forget(member, client);
            if (leaders()[key] === index) leaders()[key] = undefined;
        } finally {
            lease.release();
        }
    }
}

/**
 * Runs `work` against NB. The SSH connection is held for the whole call (it also keeps the
 * process alive until the reply, and checks the host key pin); `work` must be safe to run again
 * from the start, which read-decide-write calls are.
 */
export async function withNb<T>(nb: NbConnection, work: (session: OvsdbTransactor) => Promise<T>): Promise<T> {
    if (nb.members && nb.members.length > 1) return withLeader(nb, work);
    const privateKey = privateKeyOf(nb);
    const lease = await acquireSsh(nb.ssh, privateKey);
    try {
        for (let attempt = 0; ; attempt++) {
            const client = await session({ ...nb, privateKey });
            try {
                return await work(client);
            } catch (err) {
                if (attempt > 0 || !closedUnderUs(err, client)) throw err;
                forget(nb, client);
            }
        }
    } finally {
        lease.release();
    }
}

/** Closes every NB session of this process (tests, tools); the next call opens a new one. */
export function closeNbSessions(): void {
    const all = sessions();
    for (const key of Object.keys(all)) {
        all[key]?.client?.close();
        delete all[key];
    }
    const known = leaders();
    for (const key of Object.keys(known)) delete known[key];
}
