// Removing a node from a running Pulumi-mode cluster, under traffic between pods on the nodes it
// does not touch. While a pod still sits on its switch, preview says so and `up` refuses before
// anything is touched: every NB and SB row, the node's host and the state stay as they were.
// After the drain, `up` deletes exactly the node's resources: its NB group, its chassis, encap
// and port bindings leave the SB, its host keeps nothing of ours; nothing else changes, and the
// untouched pods lose no probe either time.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { apply, preview } from "../../lab/offline/api";
import { removeNodeSteps } from "../../lab/scenarios/nodeScenarios";
import {
    CHANGED,
    chassisOf,
    BOOKKEEPING_UPDATES,
    isNodeResource,
    mentionsNode,
    nodeHostState,
    nodeSteps,
    ovnRows,
    splitRows,
    stateNames,
    totals,
    type NodeLab,
    type OvnRows,
} from "../../lab/scenarios/nodeChange";

const ID = "larm";
let lab: NodeLab;
let steps: Awaited<ReturnType<typeof removeNodeSteps>>;
let rowsBefore: OvnRows;
let markers: (line: string) => boolean;
let resourcesBefore: string[];
const network = () => steps.network;

before(async () => {
    steps = await removeNodeSteps(ID);
    lab = steps.lab;
    rowsBefore = await ovnRows(lab);
    resourcesBefore = stateNames(lab);
    markers = mentionsNode(lab, CHANGED, network().subnet, await chassisOf(lab, CHANGED));
});

after(async () => {
    await lab?.close();
});

test("the node carries a pod: preview of its removal says so, naming the switch and the pod", async () => {
    steps.dropFromStack();
    const r = await preview(lab.options);
    assert.equal(r.ok, false);
    assert.match(r.error!, new RegExp(`removing node/${CHANGED}, host ${CHANGED} stopped before deleting anything: 1 blocker\\(s\\)`));
    assert.ok(
        r.error!.includes(
            `NodeSwitch node/${CHANGED}: cannot delete: Logical_Switch row "switch" still holds Logical_Switch_Port ${steps.pod.ifaceId} (not created by Pulumi)`,
        ),
        r.error,
    );
    assert.match(r.error!, /kubectl drain/);
    assert.deepEqual(await ovnRows(lab), rowsBefore);
});

test("up refuses before touching anything: same NB and SB rows, the node's host as it was, no step taken, no probe lost", async () => {
    const host = await nodeHostState(lab, CHANGED, network().mgmtInterface);
    const refused = await steps.upWithTraffic();
    assert.equal(refused.result.ok, false);
    assert.match(
        refused.result.error!,
        /ChangeGuard ovn-change-guard: .*removing node\/node2, host node2 stopped before deleting anything/s,
    );
    assert.deepEqual(
        refused.result.ops.filter((o) => o.op !== "same" && !o.error),
        [],
        "nothing created, updated or deleted",
    );
    assert.deepEqual(await ovnRows(lab), rowsBefore);
    assert.deepEqual(await nodeHostState(lab, CHANGED, network().mgmtInterface), host);
    assert.equal(host.controller[0], "running");
    assert.deepEqual(totals(refused.traffic).lost, 0, JSON.stringify(refused.traffic));
});

test("after the drain, up deletes exactly the node: its NB group, its SB chassis, encap and bindings; its host clean; nothing else changed; no probe lost", async (t) => {
    await steps.drain();
    const done = await steps.upWithTraffic();
    assert.equal(done.result.ok, true, done.result.error);
    // Only the node's resources are deleted, all of them; the guards learn the shorter lists.
    const { mine, others } = nodeSteps(done.result, CHANGED, "delete");
    t.diagnostic(`deleted: ${mine.join(" ")}`);
    assert.deepEqual(others, BOOKKEEPING_UPDATES);
    assert.deepEqual(mine.sort(), resourcesBefore.filter((n) => isNodeResource(n, CHANGED)).sort());
    // The engine's order the guards rely on: both diffs (and updates) before the first delete.
    const at = (o: string) => done.result.ops.findIndex((x) => `${x.op} ${x.name}` === o);
    const firstDelete = done.result.ops.findIndex((x) => x.op === "delete");
    assert.ok(
        BOOKKEEPING_UPDATES.every((u) => at(u) >= 0 && at(u) < firstDelete),
        done.result.ops.map((x) => `${x.op} ${x.name}`).join(", "),
    );

    const after = await ovnRows(lab);
    const split = { before: splitRows(rowsBefore, markers), after: splitRows(after, markers) };
    assert.deepEqual(split.after.untouched, split.before.untouched, "rows of the other nodes and the cluster unchanged");
    // The pod is drained: what still mentioned the node before the up is its own (switch, ports, chassis...).
    assert.ok(
        split.before.mentioning.nb.Logical_Switch.length === 1 && split.before.mentioning.sb.Chassis.length === 1,
        JSON.stringify(split.before.mentioning),
    );
    assert.deepEqual(
        split.after.mentioning,
        { nb: emptyTables(after.nb), sb: emptyTables(after.sb) },
        "nothing of the node is left in NB or SB",
    );
    assert.equal(await chassisOf(lab, CHANGED), undefined);

    const host = await nodeHostState(lab, CHANGED, network().mgmtInterface);
    assert.deepEqual(host, { boundPorts: [], mgmtLink: [], mgmtOvsPort: [], controller: [], ovnSettings: [], pieces: [] });
    assert.deepEqual(totals(done.traffic).lost, 0, JSON.stringify(done.traffic));
    t.diagnostic(`up ${done.seconds.toFixed(1)} s, untouched pairs ${JSON.stringify(done.traffic)}`);
});

test("a further up changes nothing", async () => {
    const r = await apply(lab.options);
    assert.equal(r.ok, true, r.error);
    assert.deepEqual(
        r.ops.filter((o) => o.op !== "same").map((o) => `${o.op} ${o.name}`),
        [],
    );
});

const emptyTables = (db: Record<string, string[]>) => Object.fromEntries(Object.keys(db).map((t) => [t, []]));
