// A unix-socket proxy in front of the NB server that can cut a session at an exact point of the
// protocol: after the k-th write transaction has been passed to NB, nothing more passes in either
// direction. The k-th transaction is committed but its reply never arrives, the ones after it
// never reach NB: the situation of an SSH connection lost in the middle of applies.
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
    const sessions: net.Socket[] = [];

    const server = net.createServer((client) => {
        const upstream = net.connect({ path: nbSocket });
        sessions.push(client, upstream);
        const splitter = new JsonValueSplitter();
        client.on("data", (chunk) => {
            for (const text of splitter.push(chunk.toString("utf8"))) {
                if (cut) return;
                upstream.write(text);
                const msg = JSON.parse(text) as { method?: string; params?: { op?: string; comment?: string }[] };
                if (msg.method !== "transact" || !msg.params?.some((op) => WRITES.includes(op.op ?? ""))) continue;
                passed.push(msg.params.find((op) => op.op === "comment")?.comment ?? "");
                if (passed.length >= budget) {
                    cut = true;
                    onCut?.(passed);
                }
            }
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
