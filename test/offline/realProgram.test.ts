// The real program (index.ts) through the offline apply against a real local cluster: two
// namespaced hosts with sshd, OVS and OVN started by the program's own host scripts, the
// Northbound topology built by its dynamic providers. Create, idempotence, drift found and repaired,
// destroy.
import assert from "node:assert/strict";
import * as fs from "node:fs";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { after, before, test } from "node:test";
import { down, hostExec, LOCAL_LAB_PASSPHRASE, up, writeLocalStack, type LocalCluster } from "../../lab/localcluster";
import { apply, destroy, refresh, type OfflineOptions, type OperationResult } from "../../lab/offline/api";

const ID = "offreal";
const STACK = `local-${ID}`;
let cluster: LocalCluster;
let work: string;
let options: OfflineOptions;

before(async () => {
    await down(ID); // whatever an aborted earlier run left
    cluster = await up({ id: ID, hosts: 2 });
    work = mkdtempSync(path.join(tmpdir(), "offline-real-"));
    const stackFile = writeLocalStack(cluster, path.join(work, `Pulumi.${STACK}.yaml`), { passphrase: LOCAL_LAB_PASSPHRASE });
    options = { stack: STACK, stackFile, localDir: work, passphrase: LOCAL_LAB_PASSPHRASE };
});

after(async () => {
    if (options) await destroy(options);
    await down(ID);
    if (work) fs.rmSync(work, { recursive: true, force: true });
});

const switches = async () => {
    const r = await hostExec(cluster, "node1", ["ovn-nbctl", "--bare", "--columns=name", "list", "Logical_Switch"]);
    return r.stdout.split("\n").filter(Boolean).sort();
};
const changed = (r: OperationResult) => r.ops.filter((o) => o.op !== "same");

test("up builds the cluster: host scripts ran, the Northbound topology exists, outputs are exported", async () => {
    const r = await apply(options);
    assert.equal(r.ok, true, r.error);
    assert.ok(r.counts.created >= 20, `created ${r.counts.created}`);
    assert.equal(r.ops.filter((o) => o.op !== "create").length, 0);
    const types = new Set(r.ops.map((o) => o.type));
    for (const t of ["command:remote:Command", "pulumi-nodejs:dynamic/hosts:ScriptBundle", "pulumi-nodejs:dynamic/ovn-nb:NodeSwitch"])
        assert.ok(types.has(t), t);
    const names = await switches();
    for (const name of ["join", "node1", "node2"]) assert.ok(names.includes(name), `switch ${name} in ${names.join(", ")}`);
    const systemIds = r.outputs.systemIds as Record<string, string>;
    assert.match(systemIds.node1, /^[0-9a-f-]{36}$/);
    assert.equal(r.outputs.nbAddress, `tcp:${cluster.hosts[0].ip}:6641`);
});

test("a second up runs no host script and changes no Northbound resource", async () => {
    const r = await apply(options);
    assert.equal(r.ok, true, r.error);
    assert.deepEqual(changed(r), []);
});

test("a switch deleted behind the program's back is drift for refresh, and up --refresh puts it back", async () => {
    await hostExec(cluster, "node1", ["ovn-nbctl", "ls-del", "node1"]);
    const r = await refresh({ ...options, dryRun: true });
    assert.equal(r.ok, true, r.error);
    assert.deepEqual(
        r.drift.map((d) => d.name),
        ["ovn-node1-switch"],
    );

    const fixed = await apply({ ...options, refresh: true });
    assert.equal(fixed.ok, true, fixed.error);
    assert.deepEqual(
        fixed.drift.map((d) => d.name),
        ["ovn-node1-switch"],
    );
    assert.ok(changed(fixed).some((o) => o.name === "ovn-node1-switch" && o.op === "update"));
    assert.ok((await switches()).includes("node1"));
    assert.deepEqual((await refresh({ ...options, dryRun: true })).drift, []);
});

test("destroy runs every delete and empties the state", async () => {
    const r = await destroy(options);
    assert.equal(r.ok, true, r.error);
    assert.equal(r.counts.deleted, r.ops.length);
    const state = JSON.parse(fs.readFileSync(r.statePath, "utf8"));
    assert.deepEqual(state.resources, []);
});
