// Renaming a node of a running Pulumi-mode cluster is not a silent delete and create: validate
// (given the stack file as last applied) warns, preview says the node would be replaced and why a
// one-step rename is refused, and `up` refuses before touching anything, under traffic between
// pods on the other nodes. The rename then lands as the message says, a removal and an addition:
// the new name's chassis and switch appear, the old ones are gone, and its pods reach the others.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { after, before, test } from "node:test";
import { ping } from "../../lab/localcluster";
import { preview } from "../../lab/offline/api";
import { renameNodeSteps } from "../../lab/scenarios/nodeScenarios";
import { CHANGED, chassisOf, nodeHostState, ovnRows, totals, type OvnRows } from "../../lab/scenarios/nodeChange";

const ID = "laren";
const ROOT = path.resolve(__dirname, "../..");
let steps: Awaited<ReturnType<typeof renameNodeSteps>>;
let rowsBefore: OvnRows;
let applied: string;

before(async () => {
    steps = await renameNodeSteps(ID);
    rowsBefore = await ovnRows(steps.lab);
    applied = path.join(steps.lab.work, "Pulumi.applied.yaml");
    fs.copyFileSync(steps.lab.options.stackFile!, applied);
});

after(async () => {
    await steps?.lab.close();
});

test("validate, given the stack file as last applied, warns that the node is renamed and so replaced", () => {
    steps.renameInStack();
    const r = spawnSync(process.execPath, ["--import", "tsx", "cli/validate.ts", steps.lab.options.stackFile!, "--previous", applied], {
        cwd: ROOT,
        encoding: "utf8",
    });
    assert.equal(r.status, 0, r.stderr);
    const ip = steps.lab.cluster.hosts.find((h) => h.name === CHANGED)!.ip;
    assert.ok(r.stderr.includes(`warning: nodes[1].name: "${steps.to}" is node "${CHANGED}" renamed (${ip}:22)`), r.stderr);
    assert.match(r.stderr, /a rename replaces the node/);
});

test("preview shows the node would be replaced and refuses a one-step rename, naming both names and the host", async () => {
    const ip = steps.lab.cluster.hosts.find((h) => h.name === CHANGED)!.ip;
    const r = await preview(steps.lab.options);
    assert.equal(r.ok, false);
    assert.ok(r.error!.includes(`node "${CHANGED}" (${ip}:22) is renamed "${steps.to}": that replaces the node`), r.error);
    assert.ok(
        r.error!.includes(`remove "${CHANGED}" from the stack and run up (drain it first), then add "${steps.to}" and run up again`),
        r.error,
    );
    assert.deepEqual(await ovnRows(steps.lab), rowsBefore);
});

test("up refuses before touching anything: no step taken, NB, SB and the host as they were, no probe lost", async () => {
    const host = await nodeHostState(steps.lab, CHANGED, steps.network.mgmtInterface);
    const refused = await steps.upWithTraffic();
    assert.equal(refused.result.ok, false);
    assert.match(refused.result.error!, /ChangeGuard ovn-change-guard: .*renaming stopped before anything was changed/s);
    assert.deepEqual(
        refused.result.ops.filter((o) => o.op !== "same" && !o.error),
        [],
    );
    assert.deepEqual(await ovnRows(steps.lab), rowsBefore);
    assert.deepEqual(await nodeHostState(steps.lab, CHANGED, steps.network.mgmtInterface), host);
    assert.equal(totals(refused.traffic).lost, 0, JSON.stringify(refused.traffic));
});

test("done as the message says, a removal and then an addition: the new name's switch and chassis, the old ones gone, its management port reached from the pods, no probe lost", async (t) => {
    steps.undoRename();
    const { removed, added } = await steps.renameInTwoUps();
    assert.equal(added.result.ok, true, added.result.error);
    t.diagnostic(
        `removal up ${removed.seconds.toFixed(1)} s ${JSON.stringify(removed.traffic)}; addition up ${added.seconds.toFixed(1)} s ${JSON.stringify(added.traffic)}`,
    );
    const rows = await ovnRows(steps.lab);
    const switches = rows.nb.Logical_Switch.map((l) => l.split(",")[0]);
    assert.ok(switches.includes(steps.to) && !switches.includes(CHANGED), switches.join(" "));
    // The host keeps its hostname: its one chassis is the new node's (registered anew).
    const chassis = await chassisOf(steps.lab, CHANGED);
    assert.ok(chassis, "the host's chassis is back in the SB");
    assert.equal(rows.sb.Chassis.length, rowsBefore.sb.Chassis.length);
    assert.equal(
        totals(removed.traffic).lost + totals(added.traffic).lost,
        0,
        JSON.stringify({ removed: removed.traffic, added: added.traffic }),
    );
    // The lab's pods are placed by host name, which the rename does not change: the renamed
    // node's management port (its host end on that host, its logical port on the new switch) stands in.
    const mgmt = steps.lab.model.nodeNetworks.find((n) => n.node === steps.to)!.mgmt.ip;
    for (const other of steps.lab.untouched) assert.ok(await ping(steps.lab.cluster, other, mgmt, 5), `${other.ifaceId} → ${mgmt}`);
});
