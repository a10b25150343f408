// A real OVN Northbound ovsdb-server for tests: fresh database from Debian's schema in its own
// temp dir, a unix socket there, optionally TCP on loopback. Several may run at once (unique dirs,
// free ports), e.g. one per test file.
import { execFile, spawn, type ChildProcess } from "child_process";
import { mkdtemp, rm } from "fs/promises";
import * as net from "net";
import { tmpdir } from "os";
import { join } from "path";
import { promisify } from "util";

const run = promisify(execFile);
export const NB_SCHEMA = "/usr/share/ovn/ovn-nb.ovsschema";

export interface NbServer {
    dir: string;
    dbFile: string;
    /** Absolute path of the unix socket. */
    socket: string;
    /** `unix:<socket>`, for ovn-nbctl --db and ovsdb-client. */
    remote: string;
    /** TCP port on 127.0.0.1 when started with `tcp`. */
    tcpPort?: number;
    pid(): number | undefined;
    /** Stops the server and waits until it has exited; the database file stays. */
    stop(): Promise<void>;
    /** Starts it again on the same database, socket and port. */
    start(): Promise<void>;
    restart(): Promise<void>;
    /** Runs ovn-nbctl against this server and returns its stdout. */
    nbctl(...args: string[]): Promise<string>;
    /** Stops the server and removes its directory. */
    cleanup(): Promise<void>;
}

export interface NbServerOptions {
    /** Also listen on 127.0.0.1:<free port> (configured as a Connection row, as ovn-ctl does). */
    tcp?: boolean;
    /** inactivity_probe of that TCP connection in ms (ovsdb-server's minimum is 1000). */
    inactivityProbeMs?: number;
}

/** A TCP port on 127.0.0.1 that was free a moment ago (the kernel picks it). */
export function freeLoopbackPort(): Promise<number> {
    return new Promise((resolve, reject) => {
        const server = net.createServer();
        server.once("error", reject);
        server.listen(0, "127.0.0.1", () => {
            const { port } = server.address() as net.AddressInfo;
            server.close(() => resolve(port));
        });
    });
}

/** Polls `check` until it returns true; fails with `what` after `timeoutMs`. */
export async function waitUntil(what: string, check: () => boolean | Promise<boolean>, timeoutMs = 10000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
        if (await check()) return;
        if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
        await new Promise((r) => setTimeout(r, 20));
    }
}

/** Kills a child we started and resolves once it has exited (and was reaped by node). */
export function killChild(child: ChildProcess | undefined, signal: NodeJS.Signals = "SIGTERM"): Promise<void> {
    if (child === undefined || child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
    child.ref(); // keep the process alive until the exit is seen (servers are unref'd while running)
    return new Promise((resolve) => {
        child.once("exit", () => resolve());
        child.kill(signal);
    });
}

/**
 * Kills started children if the test process ends without cleaning up. Servers are also unref'd
 * while running, so a test that forgot cleanup still ends (and its servers with it).
 */
export function killOnExit(children: () => (ChildProcess | undefined)[]): void {
    process.once("exit", () => {
        for (const child of children()) if (child && child.exitCode === null) child.kill("SIGKILL");
    });
}

function canConnect(to: net.NetConnectOpts): Promise<boolean> {
    return new Promise((resolve) => {
        const socket = net.connect(to);
        socket.once("connect", () => {
            socket.destroy();
            resolve(true);
        });
        socket.once("error", () => resolve(false));
    });
}

export async function startNbServer(options: NbServerOptions = {}): Promise<NbServer> {
    const dir = await mkdtemp(join(tmpdir(), "ovn-nb-"));
    const dbFile = join(dir, "ovnnb_db.db");
    const socket = join(dir, "ovnnb_db.sock");
    await run("ovsdb-tool", ["create", dbFile, NB_SCHEMA]);
    const tcpPort = options.tcp ? await freeLoopbackPort() : undefined;
    if (tcpPort !== undefined) {
        // Offline transaction on the file, like `ovn-nbctl set-connection` would do online.
        const connection: Record<string, unknown> = { target: `ptcp:${tcpPort}:127.0.0.1` };
        if (options.inactivityProbeMs !== undefined) connection.inactivity_probe = options.inactivityProbeMs;
        const txn = [
            "OVN_Northbound",
            { op: "insert", table: "Connection", row: connection, "uuid-name": "conn" },
            { op: "insert", table: "NB_Global", row: { connections: ["named-uuid", "conn"] } },
        ];
        await run("ovsdb-tool", ["transact", dbFile, JSON.stringify(txn)]);
    }

    let child: ChildProcess | undefined;
    killOnExit(() => [child]);
    const start = async () => {
        if (child && child.exitCode === null && child.signalCode === null) return;
        const args = [
            dbFile,
            `--remote=punix:${socket}`,
            `--unixctl=${join(dir, "ovsdb-server.ctl")}`,
            `--log-file=${join(dir, "ovsdb-server.log")}`,
        ];
        if (tcpPort !== undefined) args.push("--remote=db:OVN_Northbound,NB_Global,connections");
        const started = spawn("ovsdb-server", args, { stdio: "ignore" });
        started.unref();
        child = started;
        await waitUntil(`ovsdb-server on ${socket}`, async () => {
            if (started.exitCode !== null) throw new Error(`ovsdb-server exited with ${started.exitCode}; see ${dir}`);
            return (
                (await canConnect({ path: socket })) && (tcpPort === undefined || (await canConnect({ host: "127.0.0.1", port: tcpPort })))
            );
        });
    };
    const stop = () => killChild(child);
    await start();

    return {
        dir,
        dbFile,
        socket,
        remote: `unix:${socket}`,
        tcpPort,
        pid: () => child?.pid,
        stop,
        start,
        restart: async () => {
            await stop();
            await start();
        },
        nbctl: async (...args: string[]) => (await run("ovn-nbctl", [`--db=unix:${socket}`, ...args])).stdout,
        cleanup: async () => {
            await stop();
            await rm(dir, { recursive: true, force: true });
        },
    };
}
