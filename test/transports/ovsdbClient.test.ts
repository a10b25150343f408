// The JSON-RPC client driven through an in-memory stream pair playing the server: echo replies,
// result-to-error mapping, closing. (The same behaviour against a real NB is in ovsdbRealNb.test.ts.)
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { Duplex, PassThrough } from "node:stream";
import {
    comment,
    insert,
    namedUuid,
    OvsdbClient,
    OvsdbClosedError,
    OvsdbCommitError,
    OvsdbOperationError,
    OvsdbProtocolError,
    OvsdbRpcError,
    select,
    set,
    wait,
    where,
} from "../../components/ovsdb";

/** A client whose peer is this test: `sent()` yields what the client wrote, `reply()` answers. */
function pair() {
    const toServer = new PassThrough();
    const toClient = new PassThrough();
    const echoes: number[] = [];
    const busy: boolean[] = [];
    const client = new OvsdbClient(Duplex.from({ readable: toClient, writable: toServer }), {
        label: "test server",
        onEcho: () => echoes.push(1),
        onBusy: (b) => busy.push(b),
    });
    let received = "";
    toServer.on("data", (chunk: Buffer) => (received += chunk.toString("utf8")));
    const sent = async (): Promise<Record<string, unknown>[]> => {
        await new Promise((r) => setImmediate(r));
        const text = received;
        received = "";
        return text === "" ? [] : JSON.parse(`[${text.replace(/\}\{/g, "},{")}]`);
    };
    const reply = (message: unknown) => toClient.write(JSON.stringify(message));
    return { client, sent, reply, toClient, echoes, busy };
}

describe("OvsdbClient over a stream", () => {
    it("answers the server's echo request with the same params and id", async () => {
        const { sent, reply, echoes } = pair();
        reply({ method: "echo", params: ["probe", 7], id: "echo" });
        assert.deepEqual(await sent(), [{ id: "echo", result: ["probe", 7], error: null }]);
        assert.equal(echoes.length, 1);
        // Notifications (id null) get no reply.
        reply({ method: "update", params: [null, {}], id: null });
        assert.deepEqual(await sent(), []);
    });

    it("sends transact with the database first and returns typed results", async () => {
        const { client, sent, reply } = pair();
        const ops = [
            insert("Logical_Switch_Port", { name: "stor-node1" }, "lsp"),
            insert("Logical_Switch", { name: "node1", ports: set([namedUuid("lsp")]) }),
            select("Logical_Switch", [where("name", "==", "node1")], ["name"]),
        ] as const;
        const pending = client.transact("OVN_Northbound", ops);
        const [request] = await sent();
        assert.equal(request.method, "transact");
        assert.deepEqual(request.params, ["OVN_Northbound", ...ops]);
        const uuid = "907b1f49-7f6f-4784-9913-43c19257521e";
        reply({ id: request.id, error: null, result: [{ uuid: ["uuid", uuid] }, { uuid: ["uuid", uuid] }, { rows: [{ name: "node1" }] }] });
        const [lsp, , found] = await pending;
        assert.deepEqual(lsp.uuid, ["uuid", uuid]);
        assert.deepEqual(found.rows, [{ name: "node1" }]);
    });

    it("reads replies split mid-character and several replies in one chunk; reports busy while any is pending", async () => {
        const { client, sent, toClient, busy } = pair();
        const first = client.request("list_dbs", []);
        const second = client.request("list_dbs", []);
        const [a, b] = await sent();
        const bytes = Buffer.from(
            JSON.stringify({ id: a.id, result: ["Nörthbound ✓"], error: null }) + JSON.stringify({ id: b.id, result: ["x"], error: null }),
        );
        const cut = bytes.indexOf(Buffer.from("✓")) + 1; // inside the 3-byte character
        toClient.write(bytes.subarray(0, cut));
        toClient.write(bytes.subarray(cut));
        assert.deepEqual(await first, ["Nörthbound ✓"]);
        assert.deepEqual(await second, ["x"]);
        assert.deepEqual(busy, [true, false]);
    });

    it("names the failed operation by index and kind, with the server's details", async () => {
        const { client, sent, reply } = pair();
        const pending = client.transact("OVN_Northbound", [
            comment("first"),
            wait("Logical_Switch", [where("name", "==", "join")], { columns: ["name"], until: "==", rows: [{ name: "join" }], timeout: 0 }),
            insert("Logical_Switch", { name: "join" }),
        ]);
        const [request] = await sent();
        reply({ id: request.id, error: null, result: [{}, { error: "timed out", details: '"where" clause test failed' }, null] });
        await assert.rejects(pending, (err: unknown) => {
            assert.ok(err instanceof OvsdbOperationError);
            assert.equal(err.index, 1);
            assert.equal(err.error, "timed out");
            assert.match(err.message, /operation 1 \(wait on Logical_Switch\) failed: timed out: "where" clause test failed/);
            return true;
        });
    });

    it("turns the extra trailing result into a commit error", async () => {
        const { client, sent, reply } = pair();
        const pending = client.transact("OVN_Northbound", [insert("Logical_Switch", { name: "a" })]);
        const [request] = await sent();
        reply({
            id: request.id,
            error: null,
            result: [
                { uuid: ["uuid", "907b1f49-7f6f-4784-9913-43c19257521e"] },
                { error: "referential integrity violation", details: "row x" },
            ],
        });
        await assert.rejects(pending, (err: unknown) => {
            assert.ok(err instanceof OvsdbCommitError);
            assert.match(err.message, /not committed: referential integrity violation: row x/);
            return true;
        });
    });

    it("rejects on a JSON-RPC error reply", async () => {
        const { client, sent, reply } = pair();
        const pending = client.transact("Nope", []);
        const [request] = await sent();
        reply({ id: request.id, result: null, error: { error: "unknown database", details: "Nope" } });
        await assert.rejects(pending, (err: unknown) => err instanceof OvsdbRpcError && /unknown database: Nope/.test(err.message));
    });

    it("rejects pending calls when the stream closes, and later calls at once", async () => {
        const { client, sent, toClient } = pair();
        const pending = client.transact("OVN_Northbound", [comment("x")]);
        await sent();
        toClient.end();
        await assert.rejects(
            pending,
            (err: unknown) => err instanceof OvsdbClosedError && /before the reply to transact/.test(err.message),
        );
        assert.equal(client.closed, true);
        await assert.rejects(client.echo(), OvsdbClosedError);
    });

    it("closes on bytes that are not JSON-RPC", async () => {
        const { client, sent, toClient } = pair();
        const pending = client.echo();
        await sent();
        toClient.write("HTTP/1.1 400 Bad Request\r\n");
        await assert.rejects(pending, OvsdbProtocolError);
        assert.equal(client.closed, true);
    });
});
