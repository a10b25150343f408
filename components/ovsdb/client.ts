// An RFC 7047 (OVSDB management protocol) JSON-RPC client over any byte stream: a unix or TCP
// socket, or an SSH channel forwarded to one.
//
// Written here because no well-kept OVSDB library exists on npm (the few packages are abandoned,
// untyped, or tied to their own socket handling); the protocol surface we need is small:
// transact, echo, list_dbs.
//
// Plain class with ordinary private members (no #private fields, no module-level Map/Set): this
// code is captured by Pulumi's closure serializer into dynamic providers.
import type { Duplex } from "stream";
import { StringDecoder } from "string_decoder";
import { OvsdbClosedError, OvsdbProtocolError, OvsdbRpcError } from "./errors";
import { JsonValueSplitter } from "./jsonStream";
import type { Operation, ResultsOf } from "./operations";
import { checkTransactResults } from "./results";

/** What the providers need from an OVSDB connection, whatever carries it. */
export interface OvsdbTransactor {
    /** Runs `ops` as one atomic transaction on `db`; resolves with one typed result per operation. */
    transact<const T extends readonly Operation[]>(db: string, ops: T): Promise<ResultsOf<T>>;
    close(): void;
    readonly closed: boolean;
}

export interface OvsdbClientOptions {
    /** Names the peer in error messages, e.g. "OVN_Northbound at root@10.0.0.1:22". */
    label?: string;
    /** Called after each `echo` request of the server has been answered. */
    onEcho?: () => void;
    /**
     * Called with true when a request becomes pending while none was, and with false when the
     * last pending one settled: lets a carrier keep its connection ref'd only while needed.
     */
    onBusy?: (busy: boolean) => void;
}

interface PendingCall {
    method: string;
    resolve: (result: unknown) => void;
    reject: (error: Error) => void;
}

interface JsonRpcMessage {
    id?: unknown;
    method?: unknown;
    params?: unknown;
    result?: unknown;
    error?: unknown;
}

export class OvsdbClient implements OvsdbTransactor {
    private readonly stream: Duplex;
    private readonly label: string;
    private readonly onEcho?: () => void;
    private readonly onBusy?: (busy: boolean) => void;
    private readonly splitter = new JsonValueSplitter();
    private readonly decoder = new StringDecoder("utf8");
    private readonly pending: Record<string, PendingCall> = {};
    /** Messages not yet written: written together once per turn of the event loop (over SSH each write is a packet). */
    private outgoing: string[] = [];
    private nextId = 1;
    private closeReason?: string;

    constructor(stream: Duplex, options: OvsdbClientOptions = {}) {
        this.stream = stream;
        this.label = options.label ?? "OVSDB server";
        this.onEcho = options.onEcho;
        this.onBusy = options.onBusy;
        stream.on("data", (chunk: Buffer | string) => this.receive(chunk));
        stream.on("error", (err: Error) => this.shutdown(`connection error: ${err.message}`));
        // The server ending its side ends the session: no reply can follow.
        stream.on("end", () => this.shutdown("closed by the server"));
        stream.on("close", () => this.shutdown("connection closed"));
    }

    get closed(): boolean {
        return this.closeReason !== undefined;
    }

    async transact<const T extends readonly Operation[]>(db: string, ops: T): Promise<ResultsOf<T>> {
        const results = await this.request("transact", [db, ...ops]);
        return checkTransactResults(ops, results) as ResultsOf<T>;
    }

    /** Names of the databases the server holds; a cheap round trip to prove the session is alive. */
    async listDbs(): Promise<string[]> {
        return (await this.request("list_dbs", [])) as string[];
    }

    /** Round trip that changes nothing: proves the session is alive. */
    async echo(): Promise<void> {
        await this.request("echo", ["ovn-kubernetes-as-code"]);
    }

    /** Sends one JSON-RPC request; resolves with its `result` or rejects with the server's `error`. */
    request(method: string, params: unknown[]): Promise<unknown> {
        if (this.closeReason !== undefined) {
            return Promise.reject(new OvsdbClosedError(`${this.label}: cannot send ${method}: ${this.closeReason}`));
        }
        const id = this.nextId++;
        return new Promise((resolve, reject) => {
            const wasIdle = Object.keys(this.pending).length === 0;
            this.pending[String(id)] = { method, resolve, reject };
            if (wasIdle) this.onBusy?.(true);
            this.send(JSON.stringify({ method, params, id }));
        });
    }

    /**
     * Queues a message. Concurrent calls start from separate socket reads, so they are gathered
     * until the loop has handled every read at hand (setImmediate), not only the current tick.
     */
    private send(text: string): void {
        this.outgoing.push(text);
        if (this.outgoing.length === 1) setImmediate(() => this.flush());
    }

    private flush(): void {
        const text = this.outgoing.join("");
        this.outgoing = [];
        // Closed meanwhile: every pending call has been rejected already.
        if (this.closeReason === undefined) this.stream.write(text);
    }

    close(): void {
        this.shutdown("closed by the client");
        this.stream.destroy();
    }

    private receive(chunk: Buffer | string): void {
        if (this.closeReason !== undefined) return;
        let texts: string[];
        try {
            texts = this.splitter.push(typeof chunk === "string" ? chunk : this.decoder.write(chunk));
        } catch (err) {
            this.fail(`${this.label}: ${(err as Error).message}`);
            return;
        }
        for (const text of texts) {
            let message: JsonRpcMessage;
            try {
                message = JSON.parse(text) as JsonRpcMessage;
            } catch (err) {
                this.fail(`${this.label}: invalid JSON from server: ${(err as Error).message}`);
                return;
            }
            this.dispatch(message);
        }
    }

    private dispatch(message: JsonRpcMessage): void {
        if (typeof message.method === "string") {
            this.answerRequest(message);
            return;
        }
        const call = this.pending[String(message.id)];
        if (call === undefined) return; // a reply to nobody (e.g. after close); nothing to do
        delete this.pending[String(message.id)];
        if (Object.keys(this.pending).length === 0) this.onBusy?.(false);
        if (message.error !== null && message.error !== undefined) {
            const { error, details } = describeRpcError(message.error);
            call.reject(new OvsdbRpcError(call.method, error, details));
        } else {
            call.resolve(message.result);
        }
    }

    /** ovsdb-server sends `echo` as its inactivity probe and drops sessions that don't answer. */
    private answerRequest(message: JsonRpcMessage): void {
        // Notifications ("update", "locked", "stolen") carry id null and want no reply.
        if (message.id === null || message.id === undefined) return;
        if (message.method === "echo") {
            this.stream.write(JSON.stringify({ id: message.id, result: message.params ?? [], error: null }));
            this.onEcho?.();
        } else {
            this.stream.write(JSON.stringify({ id: message.id, result: null, error: "unknown method" }));
        }
    }

    private fail(reason: string): void {
        this.shutdown(reason, new OvsdbProtocolError(reason));
        this.stream.destroy();
    }

    private shutdown(reason: string, error?: Error): void {
        if (this.closeReason !== undefined) return;
        this.closeReason = reason;
        const calls = Object.entries(this.pending);
        for (const [id, call] of calls) {
            delete this.pending[id];
            call.reject(error ?? new OvsdbClosedError(`${this.label}: ${reason} before the reply to ${call.method} (request ${id})`));
        }
        if (calls.length > 0) this.onBusy?.(false);
    }
}

function describeRpcError(error: unknown): { error: string; details?: string } {
    if (typeof error === "object" && error !== null && "error" in error) {
        const e = error as { error: unknown; details?: unknown };
        return { error: String(e.error), details: typeof e.details === "string" ? e.details : undefined };
    }
    return { error: typeof error === "string" ? error : JSON.stringify(error) };
}
