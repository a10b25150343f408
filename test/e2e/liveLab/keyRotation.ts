// Rotating the SSH key of a running cluster: the new key is
// authorized on every host, the stack's secret replaced, `up` run. With @pulumi/command 1.2.1 a
// changed connection is an update, so every host command re-runs its idempotent create over the
// new key and nothing is created, replaced or deleted; the NB/SB listeners, the chassis, the
// gateway flows and the overlay stay as they were. With the old key withdrawn, refresh logs in
// with the key in state and a further `up` changes nothing.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { before, describe, test } from "node:test";
import YAML from "yaml";
import type { ClusterModel } from "../../../components/model/types";
import { hostExec, LOCAL_LAB_PASSPHRASE, PassphraseSecrets, type LocalCluster } from "../../../lab/localcluster";
import { formatMatrix, managementPortMatrix } from "../../../lab/localcluster/checks";
import { apply, refresh, type OfflineOptions, type OperationResult } from "../../../lab/offline/api";
import type { LiveLab } from "../../../lab/scenarios/liveChange";

const SSH_KEY = "ovn-kubernetes:sshPrivateKey";
let lab: LiveLab;
let cluster: LocalCluster;
let model: ClusterModel;
let options: OfflineOptions;
let systemIds: Record<string, string>;

const sh = async (host: string, argv: string[]) => {
    const r = await hostExec(cluster, host, argv);
    assert.equal(r.code, 0, `${host}: ${argv.join(" ")}: ${r.stderr}`);
    return r.stdout;
};
const lines = (text: string) =>
    text
        .split("\n")
        .map((l) => l.trim())
        .filter(Boolean)
        .sort();
const changed = (r: OperationResult) => r.ops.filter((o) => o.op !== "same").map((o) => `${o.op} ${o.name}`);
const authorizedKeys = () => path.join(cluster.dir, "authorized_keys");

/** What must survive a rotation: listeners, chassis, gateway flows, management ports answering over the overlay. */
async function assertClusterIntact() {
    const central = model.hosts.find((h) => h.isCentral)!.name;
    // ovn-sbctl prefixes the target with the connection's role: the target is the last field.
    const targets = (text: string) => lines(text).map((l) => l.split(" ").pop());
    assert.deepEqual(targets(await sh(central, ["ovn-nbctl", "get-connection"])), [model.central!.nbListener]);
    assert.deepEqual(targets(await sh(central, ["ovn-sbctl", "get-connection"])), [model.central!.sbListener]);
    assert.deepEqual(
        lines(await sh(central, ["ovn-sbctl", "--bare", "--columns=name", "list", "Chassis"])),
        Object.values(systemIds).sort(),
    );
    const gw = model.gateways[0];
    const flows = await sh(gw.node, ["ovs-ofctl", "-O", "OpenFlow13", "dump-flows", gw.bridge]);
    assert.match(flows, /actions=ct\(commit,zone=64000\)/);
    assert.match(flows, /ct_state=\+est\+trk/);
    const m = await managementPortMatrix(cluster, model);
    assert.ok(m.allOk, "\n" + formatMatrix(m));
}

/** The key rotation checks, on the live lab: the stack keeps the new key. */
export function keyRotationChecks(live: () => LiveLab): void {
    describe("the SSH key rotated", () => {
        before(async () => {
            lab = live();
            ({ cluster, model, options } = lab);
            const r = await apply(options);
            assert.equal(r.ok, true, r.error);
            systemIds = r.outputs.systemIds as Record<string, string>;
        });

        test("before the rotation: listeners, chassis, gateway flows and management ports as the stack says", () => assertClusterIntact());

        test("a new SSH key, authorized on every host first, then written as the stack's secret: up updates every host command, tears nothing down", async () => {
            const newKey = path.join(lab.work, "id_rotated");
            execFileSync("ssh-keygen", ["-q", "-t", "ed25519", "-N", "", "-C", "rotated", "-f", newKey]);
            fs.appendFileSync(authorizedKeys(), fs.readFileSync(`${newKey}.pub`));
            const doc = YAML.parse(fs.readFileSync(options.stackFile!, "utf8"));
            doc.config[SSH_KEY] = {
                secure: PassphraseSecrets.open(LOCAL_LAB_PASSPHRASE, doc.encryptionsalt).encrypt(fs.readFileSync(newKey, "utf8")),
            };
            fs.writeFileSync(options.stackFile!, YAML.stringify(doc), { mode: 0o600 });

            const r = await apply(options);
            assert.equal(r.ok, true, r.error);
            assert.deepEqual(r.counts.created + r.counts.replaced + r.counts.deleted, 0, changed(r).join("\n"));
            const commands = r.ops.filter((o) => o.type === "command:remote:Command");
            assert.ok(commands.length >= 10, `${commands.length} host commands`);
            // Updated in place for the connection; a command whose script quotes another's output may change with it.
            for (const c of commands)
                assert.ok(c.op === "update" && c.keys.includes("connection"), `${c.name}: ${c.op} [${c.keys.join(", ")}]`);
            assert.deepEqual(r.outputs.systemIds, systemIds);
            await assertClusterIntact();

            // The old key withdrawn: what the state holds is the new key, which refresh logs in with.
            fs.writeFileSync(authorizedKeys(), fs.readFileSync(`${newKey}.pub`), { mode: 0o600 });
            const seen = await refresh({ ...options, dryRun: true });
            assert.equal(seen.ok, true, seen.error);
            assert.deepEqual(seen.drift, []);
            const again = await apply(options);
            assert.equal(again.ok, true, again.error);
            assert.deepEqual(changed(again), []);
        });
    });
}
