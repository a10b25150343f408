// One OVSDB session per (SSH target, server endpoint) per process, shared by every caller and
// reopened transparently when the server restarted or the SSH connection was replaced.
//
// Like the SSH pool, the state lives on globalThis under a string key made inside a function
// (state written before the provider stubs runs a serialized copy of this module; see ./pool.ts).
import type { OvsdbTransactor } from "../ovsdb/client";
import { OvsdbClosedError } from "../ovsdb/errors";
import type { Operation, ResultsOf } from "../ovsdb/operations";
import type { SshTarget } from "../model/sshTarget";
import { NB_SOCKET, openOvsdbOverSsh, ovsdbRemote, type OvsdbEndpoint } from "./ovsdbChannel";
import { acquireSsh, sshAddress } from "./pool";

interface PooledOvsdb {
    client?: OvsdbTransactor;
    opening?: Promise<OvsdbTransactor>;
    /** A liveness probe in flight, shared by concurrent callers. */
    probe?: { client: OvsdbTransactor; alive: Promise<boolean> };
}

function ovsdbPool(): Record<string, PooledOvsdb | undefined> {
    const holder = globalThis as unknown as Record<string, Record<string, PooledOvsdb | undefined> | undefined>;
    const name = "__ovnKubernetesAsCode_ovsdbPool";
    let pool = holder[name];
    if (pool === undefined) {
        pool = {};
        holder[name] = pool;
    }
    return pool;
}

/** A JSON-RPC session has echo(); the remote ovsdb-client carrier has nothing to keep alive. */
function canEcho(client: OvsdbTransactor): client is OvsdbTransactor & { echo(): Promise<void> } {
    return typeof (client as { echo?: unknown }).echo === "function";
}

/**
 * A handle on the pooled session to an OVSDB server on an SSH host. Cheap: create one per call
 * if convenient; all handles for the same target and endpoint share one session.
 */
export class PooledOvsdbClient implements OvsdbTransactor {
    readonly closed = false;
    private readonly target: SshTarget;
    private readonly privateKey: string;
    private readonly endpoint: OvsdbEndpoint;
    private readonly key: string;

    constructor(target: SshTarget, privateKey: string, endpoint: OvsdbEndpoint) {
        this.target = target;
        this.privateKey = privateKey;
        this.endpoint = endpoint;
        this.key = `${sshAddress(target)} ${ovsdbRemote(endpoint)}`;
    }

    async transact<const T extends readonly Operation[]>(db: string, ops: T): Promise<ResultsOf<T>> {
        // Every call goes through the SSH pool first: it checks this caller's host key pin against
        // the pooled connection and reconnects if that connection died.
        const held = await acquireSsh(this.target, this.privateKey);
        try {
            const client = await this.live();
            return await client.transact(db, ops);
        } finally {
            held.release();
        }
    }

    /** Closes the pooled session; the next call opens a new one. */
    close(): void {
        const pool = ovsdbPool();
        pool[this.key]?.client?.close();
        delete pool[this.key];
    }

    /**
     * The pooled session if it still answers, else a new one. The echo before reuse closes the
     * window where the server restarted but its close has not reached us yet: sending the
     * transaction into that dead session would leave its outcome unknown, the echo costs one
     * round trip and is shared by concurrent callers.
     */
    private async live(): Promise<OvsdbTransactor> {
        const pool = ovsdbPool();
        let state = pool[this.key];
        if (state === undefined) {
            state = {};
            pool[this.key] = state;
        }
        const current = state.client;
        if (current !== undefined && !current.closed) {
            if (!canEcho(current) || (await this.probe(state, current))) return current;
        }
        if (state.opening === undefined) {
            const opening = openOvsdbOverSsh(this.target, this.privateKey, this.endpoint);
            const shared = state;
            state.opening = opening
                .then((client) => {
                    shared.client = client;
                    return client;
                })
                .finally(() => {
                    shared.opening = undefined;
                });
        }
        return state.opening;
    }

    private probe(state: PooledOvsdb, client: OvsdbTransactor & { echo(): Promise<void> }): Promise<boolean> {
        if (state.probe === undefined || state.probe.client !== client) {
            const alive = client
                .echo()
                .then(
                    () => true,
                    (err: unknown) => {
                        if (err instanceof OvsdbClosedError || client.closed) return false;
                        throw err;
                    },
                )
                .finally(() => {
                    if (state.probe?.client === client) state.probe = undefined;
                });
            state.probe = { client, alive };
        }
        return state.probe.alive;
    }
}

/** The pooled session to OVN_Northbound on `target`, by default at its standard unix socket. */
export function northbound(target: SshTarget, privateKey: string, endpoint: OvsdbEndpoint = { unixSocket: NB_SOCKET }): OvsdbTransactor {
    return new PooledOvsdbClient(target, privateKey, endpoint);
}

/** Closes every pooled OVSDB session. */
export function closeOvsdbPool(): void {
    const pool = ovsdbPool();
    for (const key of Object.keys(pool)) {
        pool[key]?.client?.close();
        delete pool[key];
    }
}
