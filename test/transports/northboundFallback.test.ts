// OVSDB over SSH when sshd forbids forwarding: the same calls run `ovsdb-client transact` on the
// host, with the same results and errors.
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { after, before, describe, it } from "node:test";
import { insert, map, mapToRecord, namedUuid, OvsdbCommitError, OvsdbRpcError, select, set, uuid, where } from "../../components/ovsdb";
import { closeSshPool, northbound, openOvsdbOverSsh, RemoteOvsdbClient, sshPoolStats } from "../../components/ssh";
import { startNbServer, type NbServer } from "../../lab/harness/nbServer";
import { startSshd, type TestSshd } from "../../lab/harness/sshd";

const NB = "OVN_Northbound";

describe("Northbound over SSH without forwarding (remote ovsdb-client)", () => {
    let sshd: TestSshd;
    let nb: NbServer;
    const nbOf = () => northbound(sshd.target(), sshd.privateKey, { unixSocket: nb.socket });
    before(async () => {
        [sshd, nb] = await Promise.all([startSshd({ forwarding: false }), startNbServer()]);
    });
    after(async () => {
        closeSshPool();
        await Promise.all([sshd?.cleanup(), nb?.cleanup()]);
    });

    it("falls back to ovsdb-client on the host when forwarding is refused", async () => {
        const session = await openOvsdbOverSsh(sshd.target(), sshd.privateKey, { unixSocket: nb.socket });
        assert.ok(session instanceof RemoteOvsdbClient);
        assert.match(await readFile(sshd.logFile, "utf8"), /refused streamlocal port forward/);
    });

    it("inserts a switch and its port, passing values with shell metacharacters intact", async () => {
        const tricky = `it's "$(touch /tmp/pwned)" \`id\` $HOME; \\ ✓`;
        await nbOf().transact(NB, [
            insert("Logical_Switch_Port", { name: "stor-node2", type: "router", options: map({ "router-port": "rtos-node2" }) }, "stor"),
            insert("Logical_Switch", { name: "node2", ports: set([namedUuid("stor")]), external_ids: map({ note: tricky }) }),
        ]);
        assert.match(
            await nb.nbctl("show"),
            /switch [0-9a-f-]+ \(node2\)\n\s+port stor-node2\n\s+type: router\n\s+router-port: rtos-node2/,
        );
        const [found] = await nbOf().transact(NB, [select("Logical_Switch", [where("name", "==", "node2")], ["external_ids"])]);
        assert.equal(mapToRecord(found.rows[0].external_ids).note, tricky);
    });

    it("surfaces commit errors and refused requests as with forwarding", async () => {
        await assert.rejects(
            nbOf().transact(NB, [
                insert("Logical_Switch_Port", { name: "stor-node2" }, "again"),
                insert("Logical_Switch", { name: "dup", ports: set([namedUuid("again")]) }),
            ]),
            (err: unknown) => err instanceof OvsdbCommitError && /identical values \(stor-node2\)/.test(err.message),
        );
        await assert.rejects(
            nbOf().transact(NB, [insert("Logical_Switch", { name: "x", ports: set([uuid("0f0a6f2a-6b3e-4b1c-9a7e-1d2b3c4d5e6f")]) })]),
            (err: unknown) => err instanceof OvsdbCommitError && err.error === "referential integrity violation",
        );
        await assert.rejects(nbOf().transact("Nope", [select("X", [])]), (err: unknown) => {
            return err instanceof OvsdbRpcError && /unknown database/.test(err.message);
        });
    });

    it("lands 50 parallel transactions over one SSH connection", async () => {
        closeSshPool();
        const loginsBefore = await sshd.acceptedLogins();
        const connectsBefore = sshPoolStats().connects;
        await Promise.all(
            Array.from({ length: 50 }, (_, i) =>
                nbOf().transact(NB, [
                    insert("Logical_Switch_Port", { name: `fb-${i}-p` }, "p"),
                    insert("Logical_Switch", { name: `fb-${i}`, ports: set([namedUuid("p")]) }),
                ]),
            ),
        );
        const names = (await nb.nbctl("--bare", "--columns=name", "list", "Logical_Switch"))
            .split(/\s+/)
            .filter((n) => n.startsWith("fb-"));
        assert.equal(names.length, 50);
        assert.equal((await sshd.acceptedLogins()) - loginsBefore, 1);
        assert.equal(sshPoolStats().connects - connectsBefore, 1);
    });

    it("keeps working after the NB restarted", async () => {
        await nb.restart();
        const [found] = await nbOf().transact(NB, [select("Logical_Switch", [where("name", "==", "node2")], ["name"])]);
        assert.deepEqual(found.rows, [{ name: "node2" }]);
    });
});
