// OVSDB over SSH forwarding to a real NB: one pooled SSH connection and one pooled NB session,
// both reopened transparently after the NB or sshd restarted.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import {
    insert,
    map,
    namedUuid,
    OvsdbClient,
    OvsdbClosedError,
    OvsdbCommitError,
    OvsdbError,
    select,
    set,
    uuid,
    uuidText,
    wait,
    where,
} from "../../components/ovsdb";
import { closeSshPool, northbound, openOvsdbOverSsh, RemoteOvsdbClient, sshPoolStats } from "../../components/ssh";
import { startNbServer, type NbServer } from "../../lab/harness/nbServer";
import { startSshd, type TestSshd } from "../../lab/harness/sshd";

const NB = "OVN_Northbound";

describe("Northbound over SSH forwarding", () => {
    let sshd: TestSshd;
    let nb: NbServer;
    const nbOf = () => northbound(sshd.target(), sshd.privateKey, { unixSocket: nb.socket });
    before(async () => {
        [sshd, nb] = await Promise.all([startSshd(), startNbServer({ tcp: true })]);
    });
    after(async () => {
        closeSshPool();
        await Promise.all([sshd?.cleanup(), nb?.cleanup()]);
    });

    it("forwards to the NB unix socket (no fallback)", async () => {
        const session = await openOvsdbOverSsh(sshd.target(), sshd.privateKey, { unixSocket: nb.socket });
        try {
            assert.ok(session instanceof OvsdbClient);
            assert.ok(!(session instanceof RemoteOvsdbClient));
        } finally {
            session.close();
        }
    });

    it("inserts a logical switch with a port added to it in the same transaction", async () => {
        const [port, ls] = await nbOf().transact(NB, [
            insert("Logical_Switch_Port", { name: "k8s-node1", addresses: set(["0a:58:0a:80:01:02 10.128.1.2"]) }, "mgmt"),
            insert("Logical_Switch", {
                name: "node1",
                ports: set([namedUuid("mgmt")]),
                other_config: map({ subnet: "10.128.1.0/24" }),
                external_ids: map({ gateway_ip: "10.128.1.1/24" }),
            }),
        ]);
        assert.match(
            await nb.nbctl("show"),
            new RegExp(
                `switch ${uuidText(ls.uuid)} \\(node1\\)\\n\\s+port k8s-node1\\n\\s+addresses: \\["0a:58:0a:80:01:02 10.128.1.2"\\]`,
            ),
        );
        const listed = await nb.nbctl("--bare", "--columns=_uuid,name", "list", "Logical_Switch_Port", uuidText(port.uuid));
        assert.equal(listed.trim().split(/\n+/).join(" "), `${uuidText(port.uuid)} k8s-node1`);
        assert.equal((await nb.nbctl("get", "Logical_Switch", "node1", "other_config:subnet")).trim(), '"10.128.1.0/24"');
    });

    it("surfaces a unique-index violation and a referential integrity violation", async () => {
        await assert.rejects(
            nbOf().transact(NB, [
                insert("Logical_Switch_Port", { name: "k8s-node1" }, "again"),
                insert("Logical_Switch", { name: "node1-dup", ports: set([namedUuid("again")]) }),
            ]),
            (err: unknown) =>
                err instanceof OvsdbCommitError &&
                err.error === "constraint violation" &&
                /identical values \(k8s-node1\)/.test(err.message),
        );
        await assert.rejects(
            nbOf().transact(NB, [insert("Logical_Switch", { name: "x", ports: set([uuid("0f0a6f2a-6b3e-4b1c-9a7e-1d2b3c4d5e6f")]) })]),
            (err: unknown) => err instanceof OvsdbCommitError && err.error === "referential integrity violation",
        );
    });

    it("lands 50 parallel transactions over one SSH connection", async () => {
        closeSshPool();
        const loginsBefore = await sshd.acceptedLogins();
        const connectsBefore = sshPoolStats().connects;
        const results = await Promise.all(
            Array.from({ length: 50 }, (_, i) =>
                nbOf().transact(NB, [
                    insert("Logical_Switch_Port", { name: `par-${i}-p` }, "p"),
                    insert("Logical_Switch", { name: `par-${i}`, ports: set([namedUuid("p")]) }),
                ]),
            ),
        );
        assert.equal(results.length, 50);
        const names = (await nb.nbctl("--bare", "--columns=name", "list", "Logical_Switch"))
            .split(/\s+/)
            .filter((n) => n.startsWith("par-"));
        assert.equal(names.length, 50);
        assert.equal((await sshd.acceptedLogins()) - loginsBefore, 1);
        assert.equal(sshPoolStats().connects - connectsBefore, 1);
    });

    it("reopens the NB session when the NB was restarted between calls", async () => {
        await nbOf().transact(NB, [select("Logical_Switch", [])]);
        const loginsBefore = await sshd.acceptedLogins();
        await nb.restart();
        const [found] = await nbOf().transact(NB, [select("Logical_Switch", [where("name", "==", "node1")], ["name"])]);
        assert.deepEqual(found.rows, [{ name: "node1" }]);
        assert.equal(await sshd.acceptedLogins(), loginsBefore, "the SSH connection was kept");
    });

    it("fails clearly while the NB is down and recovers once it is back", async () => {
        await nb.stop();
        await assert.rejects(nbOf().transact(NB, [select("Logical_Switch", [])]), (err: unknown) => {
            return err instanceof OvsdbError && err.message.includes(`cannot reach unix:${nb.socket} via root@127.0.0.1:${sshd.port}`);
        });
        await nb.start();
        const [all] = await nbOf().transact(NB, [select("Logical_Switch", [where("name", "==", "node1")], ["name"])]);
        assert.equal(all.rows.length, 1);
    });

    it("fails a transaction in flight clearly when sshd goes away", async () => {
        const session = await openOvsdbOverSsh(sshd.target(), sshd.privateKey, { unixSocket: nb.socket });
        assert.ok(session instanceof OvsdbClient);
        // A wait that cannot be satisfied holds the transaction at the server for a minute.
        const blocked = session.transact(NB, [
            wait("Logical_Switch", [where("name", "==", "node1")], {
                columns: ["name"],
                until: "==",
                rows: [{ name: "never" }],
                timeout: 60000,
            }),
        ]);
        const closed = assert.rejects(blocked, (err: unknown) => {
            return (
                err instanceof OvsdbClosedError &&
                err.message.includes(`via root@127.0.0.1:${sshd.port}`) &&
                /before the reply to transact/.test(err.message)
            );
        });
        await session.echo(); // answered in order: the server has read the transaction
        await sshd.stop();
        await closed;
        await sshd.start();
    });

    it("reconnects SSH and NB after sshd restarted", async () => {
        await nbOf().transact(NB, [select("Logical_Switch", [])]);
        await sshd.stop();
        await sshd.start();
        const loginsBefore = await sshd.acceptedLogins();
        const [found] = await nbOf().transact(NB, [select("Logical_Switch", [where("name", "==", "node1")], ["name"])]);
        assert.equal(found.rows.length, 1);
        assert.equal((await sshd.acceptedLogins()) - loginsBefore, 1);
    });

    it("forwards to the NB TCP port as well", async () => {
        const tcp = northbound(sshd.target(), sshd.privateKey, { tcpHost: "127.0.0.1", tcpPort: nb.tcpPort as number });
        const [found] = await tcp.transact(NB, [select("Logical_Switch", [where("name", "==", "node1")], ["name"])]);
        assert.deepEqual(found.rows, [{ name: "node1" }]);
    });
});
