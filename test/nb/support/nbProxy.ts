// A unix-socket proxy in front of the NB server that can cut a session at an exact point of the
// protocol: after the k-th write transaction has been passed to NB, nothing more passes in either
// direction. The k-th transaction is committed but its reply never arrives, the ones after it
// never reach NB: the situation of an SSH connection lost in the middle of applies.
// It can also hold the next write transaction back until the test releases it, so that another
// writer acts exactly between a provider's read and its commit.
import { mkdtemp, rm } from "fs/promises";
import * as net from "net";
import { tmpdir } from "os";
import { join } from "path";
import { JsonValueSplitter } from "../../../components/ovsdb/jsonStream";

export interface NbProxy {
    socket: string;
    /** Cut every session once `k` more write transactions have reached NB; resolves with their comments. */
    cutAfterWrites(k: number): Promise<string[]>;
    /** Let new sessions through again. */
    heal(): void;
    /**
     * Holds the next write transaction (and everything after it on its session) before NB sees it:
     * `held` resolves with its comment once it is held; `release` passes it on.
     */
    holdNextWrite(): { held: Promise<string>; release(): void };
    close(): Promise<void>;
}

const WRITES = ["insert", "update", "mutate", "delete"];

export async function startNbProxy(nbSocket: string): Promise<NbProxy> {
    const dir = await mkdtemp(join(tmpdir(), "nb-proxy-"));
    const socket = join(dir, "nb.sock");
    let cut = false;
    let budget = Infinity;
    let passed: string[] = [];
    let onCut: ((comments: string[]) => void) | undefined;
    let onHold: ((comment: string, release: () => void) => void) | undefined;
    const sessions: net.Socket[] = [];

    const server = net.createServer((client) => {
        const upstream = net.connect({ path: nbSocket });
        sessions.push(client, upstream);
        const splitter = new JsonValueSplitter();
        // Requests held back on this session, in order; undefined while nothing is held.
        let queue: string[] | undefined;
        const flush = () => {
            const pending = queue ?? [];
            queue = undefined;
            for (const text of pending) forward(text);
        };
        const forward = (text: string) => {
            if (cut) return;
            if (queue) {
                queue.push(text);
                return;
            }
            const msg = JSON.parse(text) as { method?: string; params?: { op?: string; comment?: string }[] };
            const write = msg.method === "transact" && msg.params?.some((op) => WRITES.includes(op.op ?? ""));
            const comment = (write && msg.params!.find((op) => op.op === "comment")?.comment) || "";
            if (write && onHold) {
                const hook = onHold;
                onHold = undefined;
                queue = [text];
                hook(comment, flush);
                return;
            }
            upstream.write(text);
            if (!write) return;
            passed.push(comment);
            if (passed.length >= budget) {
                cut = true;
                onCut?.(passed);
            }
        };
        client.on("data", (chunk) => {
            for (const text of splitter.push(chunk.toString("utf8"))) forward(text);
        });
        upstream.on("data", (chunk) => {
            if (!cut) client.write(chunk);
        });
        const end = () => {
            client.destroy();
            upstream.destroy();
        };
        client.on("close", end);
        upstream.on("close", end);
        client.on("error", end);
        upstream.on("error", end);
    });
    await new Promise<void>((resolve) => server.listen(socket, resolve));

    return {
        socket,
        cutAfterWrites: (k) => {
            passed = [];
            budget = k;
            return new Promise((resolve) => (onCut = resolve));
        },
        holdNextWrite: () => {
            let release: () => void = () => undefined;
            let released = false;
            const held = new Promise<string>((resolve) => {
                onHold = (comment, pass) => {
                    release = pass;
                    if (released) pass();
                    resolve(comment);
                };
            });
            return {
                held,
                release: () => {
                    released = true;
                    release();
                },
            };
        },
        heal: () => {
            cut = false;
            budget = Infinity;
            for (const s of sessions.splice(0)) s.destroy();
        },
        close: async () => {
            for (const s of sessions.splice(0)) s.destroy();
            await new Promise<void>((resolve) => server.close(() => resolve()));
            await rm(dir, { recursive: true, force: true });
        },
    };
}
