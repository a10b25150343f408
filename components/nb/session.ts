// The NB database of a resource's inputs, as one OVSDB session per (SSH target, socket) per
// process, kept on globalThis (this code runs serialized inside the provider host; a
// module-level Map would not survive that) and carried by the SSH layer's pooled connection.
//
// Why not the SSH layer's PooledOvsdbClient: it sends an `echo` and waits for it before every
// transaction, shared by concurrent callers, which turns many parallel applies into lock-step
// waves: 16 parallel workers ran 400 small transactions in 450 ms through it and in 77 ms on the
// session directly. The echo guards against sending into a session the server already dropped;
// here that case is handled by the caller's structure instead: every NB call is "read, decide,
// write" from live state, so when the session turns out to be closed the whole call is simply run
// again once on a fresh session (a write that did commit is then found by the read, and nothing
// is written twice).
import type { OvsdbTransactor } from "../ovsdb/client";
import { openOvsdbOverSsh, type OvsdbEndpoint } from "../ssh/ovsdbChannel";
import { acquireSsh, sshAddress } from "../ssh/pool";
import type { NbConnection } from "./kinds/common";

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

/** Names one NB database as this process reaches it: SSH target and socket. */
export const databaseOf = (nb: NbConnection) => `${sshAddress(nb.ssh)} ${nb.socket}`;
const keyOf = databaseOf;

async function session(nb: NbConnection): Promise<OvsdbTransactor> {
    const all = sessions();
    const held = (all[keyOf(nb)] ??= {});
    if (held.client && !held.client.closed) return held.client;
    held.opening ??= openOvsdbOverSsh(nb.ssh, nb.privateKey, endpointOf(nb.socket))
        .then((client) => (held.client = client))
        .finally(() => (held.opening = undefined));
    return held.opening;
}

function forget(nb: NbConnection, client: OvsdbTransactor): void {
    const held = sessions()[keyOf(nb)];
    if (held?.client === client) held.client = undefined;
    client.close();
}

const closedUnderUs = (err: unknown, client: OvsdbTransactor) =>
    client.closed || (typeof err === "object" && err !== null && (err as { name?: unknown }).name === "OvsdbClosedError");

/**
 * Runs `work` against NB. The SSH connection is held for the whole call (it also keeps the
 * process alive until the reply, and checks the host key pin); `work` must be safe to run again
 * from the start, which read-decide-write calls are.
 */
export async function withNb<T>(nb: NbConnection, work: (session: OvsdbTransactor) => Promise<T>): Promise<T> {
    const lease = await acquireSsh(nb.ssh, nb.privateKey);
    try {
        for (let attempt = 0; ; attempt++) {
            const client = await session(nb);
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
}
