// The JSON-RPC client against a real OVN Northbound ovsdb-server (Debian's schema), over its unix
// socket and over TCP with a short inactivity probe.
import assert from "node:assert/strict";
import * as net from "node:net";
import { after, before, describe, it } from "node:test";
import {
    insert,
    mutate,
    mutation,
    namedUuid,
    OvsdbClient,
    OvsdbCommitError,
    OvsdbOperationError,
    OvsdbRpcError,
    select,
    set,
    uuid,
    uuidText,
    uuidTexts,
    wait,
    where,
} from "../../components/ovsdb";
import { startNbServer, waitUntil, type NbServer } from "../../lab/harness/nbServer";

function connect(to: net.NetConnectOpts, onEcho?: () => void): Promise<OvsdbClient> {
    return new Promise((resolve, reject) => {
        const socket = net.connect(to);
        socket.once("error", reject);
        socket.once("connect", () => resolve(new OvsdbClient(socket, { label: "NB", onEcho })));
    });
}

describe("OvsdbClient against a real NB ovsdb-server", () => {
    let nb: NbServer;
    let client: OvsdbClient;
    before(async () => {
        nb = await startNbServer({ tcp: true, inactivityProbeMs: 1000 });
        client = await connect({ path: nb.socket });
    });
    after(async () => {
        client?.close();
        await nb?.cleanup();
    });

    it("lists the database", async () => {
        assert.ok((await client.listDbs()).includes("OVN_Northbound"));
    });

    it("inserts a switch with a non-root port in one transaction and mutates it", async () => {
        const [port, ls] = await client.transact("OVN_Northbound", [
            insert("Logical_Switch_Port", { name: "stor-node1", type: "router", addresses: set(["router"]) }, "stor"),
            insert("Logical_Switch", { name: "node1", ports: set([namedUuid("stor")]) }),
        ]);
        const show = await nb.nbctl("show");
        assert.match(show, new RegExp(`switch ${uuidText(ls.uuid)} \\(node1\\)\\n\\s+port stor-node1\\n\\s+type: router`));

        const [, , [row]] = await client
            .transact("OVN_Northbound", [
                insert("Logical_Switch_Port", { name: "k8s-node1" }, "mgmt"),
                mutate("Logical_Switch", [where("_uuid", "==", ls.uuid)], [mutation("ports", "insert", set([namedUuid("mgmt")]))]),
                select("Logical_Switch", [where("name", "==", "node1")], ["ports"]),
            ])
            .then((r) => [r[0], r[1], r[2].rows] as const);
        assert.equal(uuidTexts(row.ports).length, 2);
        assert.ok(uuidTexts(row.ports).includes(uuidText(port.uuid)));
        assert.equal((await nb.nbctl("--bare", "--columns=name", "find", "Logical_Switch_Port", "name=k8s-node1")).trim(), "k8s-node1");
    });

    it("reports a unique index violation (two ports with one name) with the server's details", async () => {
        await assert.rejects(
            client.transact("OVN_Northbound", [
                insert("Logical_Switch_Port", { name: "dup" }, "p1"),
                insert("Logical_Switch_Port", { name: "dup" }, "p2"),
                insert("Logical_Switch", { name: "dupsw", ports: set([namedUuid("p1"), namedUuid("p2")]) }),
            ]),
            (err: unknown) => {
                assert.ok(err instanceof OvsdbCommitError, String(err));
                assert.equal(err.error, "constraint violation");
                assert.match(err.message, /identical values \(dup\) for index on column "name"/);
                return true;
            },
        );
        assert.equal((await nb.nbctl("--bare", "--columns=name", "find", "Logical_Switch", "name=dupsw")).trim(), "");
    });

    it("reports a referential integrity violation", async () => {
        const missing = "0f0a6f2a-6b3e-4b1c-9a7e-1d2b3c4d5e6f";
        await assert.rejects(
            client.transact("OVN_Northbound", [insert("Logical_Switch", { name: "dangling", ports: set([uuid(missing)]) })]),
            (err: unknown) => {
                assert.ok(err instanceof OvsdbCommitError, String(err));
                assert.equal(err.error, "referential integrity violation");
                assert.match(err.message, new RegExp(`references nonexistent row ${missing}`));
                return true;
            },
        );
    });

    it("reports a failed wait precondition as that operation's error", async () => {
        await assert.rejects(
            client.transact("OVN_Northbound", [
                select("Logical_Switch", []),
                wait("Logical_Switch", [where("name", "==", "node1")], {
                    columns: ["name"],
                    until: "!=",
                    rows: [{ name: "node1" }],
                    timeout: 0,
                }),
            ]),
            (err: unknown) =>
                err instanceof OvsdbOperationError && err.index === 1 && /\(wait on Logical_Switch\) failed: timed out/.test(err.message),
        );
    });

    it("reports an unknown database as a refused request", async () => {
        await assert.rejects(client.transact("Open_vSwitch", [select("Bridge", [])]), (err: unknown) => {
            return err instanceof OvsdbRpcError && /unknown database/.test(err.message);
        });
    });

    it("answers the server's inactivity probe and keeps the session", async () => {
        // Control: a session that ignores echo is dropped by the server's 1 s inactivity probe.
        const silent = net.connect({ host: "127.0.0.1", port: nb.tcpPort as number });
        let sawEcho = false;
        silent.on("data", (d: Buffer) => (sawEcho ||= d.toString().includes('"method":"echo"')));
        await new Promise((resolve) => silent.once("close", resolve));
        assert.equal(sawEcho, true);

        let echoes = 0;
        const tcp = await connect({ host: "127.0.0.1", port: nb.tcpPort as number }, () => echoes++);
        try {
            await waitUntil("two echo requests answered", () => echoes >= 2, 20000);
            assert.equal(tcp.closed, false);
            const [result] = await tcp.transact("OVN_Northbound", [select("Logical_Switch", [where("name", "==", "node1")], ["name"])]);
            assert.deepEqual(result.rows, [{ name: "node1" }]);
        } finally {
            tcp.close();
        }
    });
});
