// The transports survive Pulumi's closure serializer: a function using the pooled Northbound
// session is serialized the way a dynamic provider is, then run from that text in a fresh plain
// node process (as the engine's provider process runs it), against a real sshd and NB.
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { after, before, describe, it } from "node:test";
import * as pulumi from "@pulumi/pulumi";
import { insert, namedUuid, select, set, where } from "../../components/ovsdb";
import type { SshTarget } from "../../components/model/sshTarget";
import { closeSshPool, northbound, sshPoolStats } from "../../components/ssh";
import { startNbServer, type NbServer } from "../../lab/harness/nbServer";
import { startSshd, type TestSshd } from "../../lab/harness/sshd";

/** What a provider method would do: several transactions, some in parallel, on the pooled session. */
async function providerLike(target: SshTarget, privateKey: string, socket: string) {
    const nb = northbound(target, privateKey, { unixSocket: socket });
    await Promise.all(
        [1, 2, 3].map((i) =>
            nb.transact("OVN_Northbound", [
                insert("Logical_Switch_Port", { name: `ser-${i}-p` }, "p"),
                insert("Logical_Switch", { name: `ser-${i}`, ports: set([namedUuid("p")]) }),
            ]),
        ),
    );
    const [found] = await northbound(target, privateKey, { unixSocket: socket }).transact("OVN_Northbound", [
        select("Logical_Switch", [where("name", "==", "ser-2")], ["name"]),
    ]);
    return { rows: found.rows, connects: sshPoolStats().connects };
}

/** Loads serialized text in a new node process (no TypeScript loader) and calls its handler. */
function runSerialized(text: string, args: unknown[]): Promise<unknown> {
    const script = `
        const requireFromString = require(require.resolve("require-from-string", { paths: [require.resolve("@pulumi/pulumi")] }));
        let input = "";
        process.stdin.on("data", (d) => (input += d)).on("end", async () => {
            const { text, args } = JSON.parse(input);
            const mod = requireFromString(text, process.cwd() + "/__provider.js");
            try {
                const result = await mod.handler(...args);
                process.stdout.write(JSON.stringify(result));
            } catch (err) {
                process.stderr.write(String(err && err.stack || err));
                process.exitCode = 1;
            }
        });`;
    return new Promise((resolve, reject) => {
        const child = execFile(process.execPath, ["-e", script], { cwd: process.cwd() }, (err, stdout, stderr) => {
            if (err) reject(new Error(`${err.message}\n${stderr}`));
            else resolve(JSON.parse(stdout));
        });
        child.stdin?.end(JSON.stringify({ text, args }));
    });
}

describe("transports inside a serialized dynamic provider", () => {
    let sshd: TestSshd;
    let nb: NbServer;
    before(async () => {
        [sshd, nb] = await Promise.all([startSshd(), startNbServer()]);
    });
    after(async () => {
        closeSshPool();
        await Promise.all([sshd?.cleanup(), nb?.cleanup()]);
    });

    it("serializes and runs with one pooled SSH connection", async () => {
        const serialized = await pulumi.runtime.serializeFunction(providerLike);
        const result = (await runSerialized(serialized.text, [sshd.target(), sshd.privateKey, nb.socket])) as {
            rows: unknown[];
            connects: number;
        };
        assert.deepEqual(result, { rows: [{ name: "ser-2" }], connects: 1 });
        assert.equal(await sshd.acceptedLogins(), 1);
        const names = (await nb.nbctl("--bare", "--columns=name", "list", "Logical_Switch_Port")).split(/\s+/).filter(Boolean).sort();
        assert.deepEqual(names, ["ser-1-p", "ser-2-p", "ser-3-p"]);
    });
});
