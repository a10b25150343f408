// One SSH connection per user@host:port per process, shared by every caller.
//
// Why the pool lives on globalThis under a string key made inside a function: state written
// before the provider stubs (../dynamic/stub) holds this code as Pulumi's closure serializer
// captured it, and the engine still runs that copy. A module-level Map, Set, Symbol or Buffer, a
// socket or an ssh2 Client cannot be serialized, and #private fields break when the serialized
// copy runs. Such copies and the installed package may run in the same provider process;
// globalThis makes them share one pool.
//
// A connection's socket is unref'd while no call holds it (a lease): an idle pooled connection
// never keeps a process (a test, a tool, the provider host) from exiting.
import type * as net from "net";
import type { Client } from "ssh2";
import type { SshTarget } from "../model/sshTarget";
import { connectSsh, sshAddress } from "./connect";
import { redactKey, SshChannelError, SshError, SshHostKeyError } from "./errors";
import { hostKeyRefusal } from "./hostKey";

/** OpenSSH allows 10 session channels per connection (MaxSessions); stay below it. */
const MAX_SESSIONS = 8;
const CHANNEL_OPEN_TIMEOUT_MS = 30000;
/**
 * How long a session channel the server refuses while others are open is tried again: sshd counts
 * a closed session until its main loop collects it, after a quick command's close may already
 * have let the next channel open ask (and a server may allow fewer than MAX_SESSIONS).
 */
const SESSION_LIMIT_WAIT_MS = 30000;
/**
 * The reason code sshd gives a session channel it cannot open, as at MaxSessions: its default,
 * SSH2_OPEN_CONNECT_FAILED ("open failed"; OpenSSH serverloop.c, server_input_channel_open).
 */
const OPEN_CONNECT_FAILED = 2;

interface PooledSsh {
    key: string;
    client: Client;
    socket: net.Socket;
    /** Fingerprint of the host key seen at connect; later callers' pins are checked against it. */
    presented: string;
    /** Pins (with insecureIgnoreHostKey) already checked against `presented` and accepted: each is checked once. */
    accepted: Record<string, true | undefined>;
    leases: number;
    sessions: number;
    waiters: (() => void)[];
    dead: boolean;
}

interface SshPool {
    connections: Record<string, PooledSsh | undefined>;
    connecting: Record<string, Promise<PooledSsh> | undefined>;
    /** How many SSH connections this process has opened (logins), for tests and diagnostics. */
    connects: number;
}

function sshPool(): SshPool {
    const holder = globalThis as unknown as Record<string, SshPool | undefined>;
    const name = "__ovnKubernetesAsCode_sshPool";
    let pool = holder[name];
    if (pool === undefined) {
        pool = { connections: {}, connecting: {}, connects: 0 };
        holder[name] = pool;
    }
    return pool;
}

function checkTarget(target: SshTarget): void {
    if (!/^[A-Za-z0-9._:%-]+$/.test(target.host)) throw new SshError(`invalid SSH host ${JSON.stringify(target.host)}`);
    if (!Number.isInteger(target.port) || target.port < 1 || target.port > 65535) {
        throw new SshError(`invalid SSH port ${JSON.stringify(target.port)} for ${target.host}`);
    }
    if (!/^[A-Za-z_][A-Za-z0-9._-]*$/.test(target.user)) throw new SshError(`invalid SSH user ${JSON.stringify(target.user)}`);
}

/** A hold on a pooled connection: keeps its socket ref'd until released. */
export interface SshLease {
    readonly client: Client;
    /** True when the connection was already pooled (it may have died unnoticed). */
    readonly reused: boolean;
    /** Fingerprint (`SHA256:…`) of the host key the server presented, which the caller's pin accepted. */
    readonly presented: string;
    isDead(): boolean;
    /** Waits until fewer than MAX_SESSIONS session channels are open on this connection; release() frees the slot. */
    takeSessionSlot(): Promise<void>;
    /** Session channels open on this connection by other holders. */
    otherSessions(): number;
    /** Another hold on the same connection, e.g. while a long-lived channel has a call in flight. */
    retain(): SshLease;
    release(): void;
}

export { sshAddress };

/** A hold on the pooled connection to `target`, connecting (once, for all concurrent callers) if needed. */
export async function acquireSsh(target: SshTarget, privateKey: string): Promise<SshLease> {
    checkTarget(target);
    const pool = sshPool();
    const key = sshAddress(target);
    let entry = pool.connections[key];
    let reused = true;
    if (entry === undefined || isDead(entry)) {
        reused = false;
        let connecting = pool.connecting[key];
        if (connecting === undefined) {
            connecting = connect(target, privateKey).finally(() => {
                delete pool.connecting[key];
            });
            pool.connecting[key] = connecting;
        }
        entry = await connecting;
    }
    // Also for callers that joined someone else's connect or reuse a pooled connection: each
    // caller's own pin must accept the key the server presented.
    const pin = `${target.insecureIgnoreHostKey} ${target.hostKey ?? ""}`;
    if (!entry.accepted[pin]) {
        const refusal = hostKeyRefusal(target, entry.presented);
        if (refusal !== undefined) throw new SshHostKeyError(refusal, entry.presented);
        entry.accepted[pin] = true;
    }
    return lease(entry, reused);
}

function lease(entry: PooledSsh, reused: boolean): SshLease {
    entry.leases++;
    if (entry.leases === 1) entry.socket.ref();
    let released = false;
    let slot = false;
    return {
        client: entry.client,
        reused,
        presented: entry.presented,
        isDead: () => isDead(entry),
        retain: () => lease(entry, true),
        takeSessionSlot: async () => {
            if (slot) return;
            await takeSessionSlot(entry);
            slot = true;
        },
        otherSessions: () => entry.sessions - (slot ? 1 : 0),
        release: () => {
            if (released) return;
            released = true;
            if (slot) freeSessionSlot(entry);
            entry.leases--;
            if (entry.leases === 0) entry.socket.unref();
        },
    };
}

function isDead(entry: PooledSsh): boolean {
    if (!entry.dead && (entry.socket.destroyed || !entry.socket.writable)) markDead(entry);
    return entry.dead;
}

function markDead(entry: PooledSsh): void {
    if (entry.dead) return;
    entry.dead = true;
    const pool = sshPool();
    if (pool.connections[entry.key] === entry) delete pool.connections[entry.key];
    // Waiters for a session slot proceed and fail fast on the dead connection.
    for (const wake of entry.waiters.splice(0)) wake();
    entry.client.end();
    entry.socket.destroy();
}

/** Connects, and pools the connection once logged in; it leaves the pool when it closes. */
async function connect(target: SshTarget, privateKey: string): Promise<PooledSsh> {
    let pooled: PooledSsh | undefined;
    const session = await connectSsh(target, privateKey, () => {
        if (pooled) markDead(pooled);
    });
    pooled = { key: sshAddress(target), ...session, accepted: {}, leases: 0, sessions: 0, waiters: [], dead: false };
    session.socket.unref(); // until a lease refs it
    const pool = sshPool();
    pool.connects++;
    pool.connections[pooled.key] = pooled;
    return pooled;
}

/**
 * Opens a channel on the pooled connection with `open` (exec, forwardOut, ...). Session channels
 * (exec) wait for one of MAX_SESSIONS slots. If the pooled connection turns out to have died
 * unnoticed, the channel never opened and nothing ran, so it reconnects and tries once more.
 * The connection is held (and, for a session, its slot) until `done` is called; `retain` takes
 * further holds on the same connection after that.
 */
export async function openChannel<C>(
    target: SshTarget,
    privateKey: string,
    kind: "session" | "forward",
    open: (client: Client, callback: (err: Error | undefined, channel: C) => void) => void,
): Promise<{ channel: C; done: () => void; retain: () => SshLease }> {
    const limitWaitEnds = Date.now() + SESSION_LIMIT_WAIT_MS;
    for (let attempt = 0; ; attempt++) {
        const held = await acquireSsh(target, privateKey);
        try {
            if (kind === "session") await held.takeSessionSlot();
            const channel = await openWithTimeout(held.client, open);
            return { channel, done: held.release, retain: held.retain };
        } catch (err) {
            const others = held.otherSessions();
            held.release();
            if (attempt === 0 && held.reused && held.isDead()) continue;
            if (kind === "session" && others > 0 && refusedAtLimit(err) && Date.now() < limitWaitEnds) {
                await new Promise((wake) => setTimeout(wake, Math.min(25 * 2 ** Math.min(attempt, 5), 1000)));
                continue;
            }
            const reason = err instanceof Error ? err.message : String(err);
            throw new SshChannelError(`SSH ${sshAddress(target)}: cannot open a ${kind} channel: ${redactKey(reason, privateKey)}`);
        }
    }
}

/** A channel the server refused as it refuses one over its MaxSessions. */
function refusedAtLimit(err: unknown): boolean {
    return (err as { reason?: unknown } | undefined)?.reason === OPEN_CONNECT_FAILED;
}

function openWithTimeout<C>(
    client: Client,
    open: (client: Client, callback: (err: Error | undefined, channel: C) => void) => void,
): Promise<C> {
    return new Promise<C>((resolve, reject) => {
        const timer = setTimeout(
            () => reject(new Error(`no answer from the server within ${CHANNEL_OPEN_TIMEOUT_MS / 1000} s`)),
            CHANNEL_OPEN_TIMEOUT_MS,
        );
        try {
            open(client, (err, channel) => {
                clearTimeout(timer);
                if (err) reject(err);
                else resolve(channel);
            });
        } catch (err) {
            // ssh2 throws "Not connected" synchronously on a closed connection
            clearTimeout(timer);
            reject(err);
        }
    });
}

function takeSessionSlot(entry: PooledSsh): Promise<void> {
    if (entry.sessions < MAX_SESSIONS || entry.dead) {
        entry.sessions++;
        return Promise.resolve();
    }
    return new Promise((resolve) =>
        entry.waiters.push(() => {
            entry.sessions++;
            resolve();
        }),
    );
}

function freeSessionSlot(entry: PooledSsh): void {
    entry.sessions--;
    const next = entry.waiters.shift();
    if (next) next();
}

/** What the pool holds now and how many connections it ever opened (for tests and diagnostics). */
export function sshPoolStats(): { connects: number; open: string[] } {
    const pool = sshPool();
    return { connects: pool.connects, open: Object.keys(pool.connections).filter((k) => pool.connections[k] !== undefined) };
}

/** Closes every pooled connection (e.g. at the end of a test or tool); the next call reconnects. */
export function closeSshPool(): void {
    const pool = sshPool();
    for (const entry of Object.values(pool.connections)) if (entry) markDead(entry);
}
