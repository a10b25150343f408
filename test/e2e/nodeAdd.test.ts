// Adding a node to a running Pulumi-mode cluster (appending it to the stack), under traffic between
// pods on nodes it does not touch: the `up` creates only the new node's resources, no existing
// node's subnet, MACs or join address moves, its chassis appears in the SB, and its pods reach
// the others. The untouched pods lose no probe.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { ping } from "../../lab/localcluster";
import { apply } from "../../lab/offline/api";
import { addNodeSteps } from "../../lab/scenarios/nodeScenarios";
import {
    CHANGED,
    chassisOf,
    BOOKKEEPING_UPDATES,
    isNodeResource,
    mentionsNode,
    nodeSteps,
    ovnRows,
    splitRows,
    stateNames,
    totals,
    type OvnRows,
} from "../../lab/scenarios/nodeChange";

const ID = "laadd";
let steps: Awaited<ReturnType<typeof addNodeSteps>>;
let rowsBefore: OvnRows;

before(async () => {
    steps = await addNodeSteps(ID);
    rowsBefore = await ovnRows(steps.lab);
});

after(async () => {
    await steps?.lab.close();
});

test("before: the stack has no node2, the SB no chassis of its host", async () => {
    assert.equal(
        steps.lab.model.nodeNetworks.some((n) => n.node === CHANGED),
        false,
    );
    assert.equal(await chassisOf(steps.lab, CHANGED), undefined);
});

test("up with node2 appended creates only node2's resources, moves nothing of the others, and loses no probe", async (t) => {
    const model = steps.appendToStack();
    const done = await steps.upWithTraffic();
    assert.equal(done.result.ok, true, done.result.error);
    // The guards learn the longer lists; everything else is a create of node2's, one for each of
    // its resources in the state now, among them its script bundle, chassis, switch and management port.
    const { mine: created, others } = nodeSteps(done.result, CHANGED, "create");
    t.diagnostic(`created: ${created.join(" ")}`);
    assert.deepEqual(others, BOOKKEEPING_UPDATES);
    assert.deepEqual(
        created.sort(),
        stateNames(steps.lab)
            .filter((n) => isNodeResource(n, CHANGED))
            .sort(),
    );
    for (const part of ["scripts", "chassis", "switch", "mgmt"])
        assert.ok(
            created.some((n) => n.includes(part)),
            `no ${part} created: ${created.join(", ")}`,
        );

    const network = model.nodeNetworks.find((n) => n.node === CHANGED)!;
    const chassis = await chassisOf(steps.lab, CHANGED);
    assert.ok(chassis, "node2's chassis is in the SB");
    const after = await ovnRows(steps.lab);
    const markers = mentionsNode(steps.lab, CHANGED, network.subnet, chassis);
    // Every row that existed is still there, unchanged (subnets, router port MACs and networks, join addresses, encaps).
    assert.deepEqual(splitRows(after, markers).untouched, splitRows(rowsBefore, markers).untouched);
    assert.deepEqual(splitRows(rowsBefore, markers).mentioning.nb.Logical_Switch, []);
    const mine = splitRows(after, markers).mentioning;
    assert.deepEqual(mine.nb.Logical_Switch.length, 1, JSON.stringify(mine.nb));
    assert.ok(mine.nb.Logical_Switch[0].includes(`subnet=${network.subnet}`), mine.nb.Logical_Switch[0]);
    assert.equal(mine.sb.Encap.length, 1);
    assert.ok(mine.sb.Encap[0].includes(steps.lab.cluster.hosts.find((h) => h.name === CHANGED)!.ip));
    assert.equal(totals(done.traffic).lost, 0, JSON.stringify(done.traffic));
    t.diagnostic(`up ${done.seconds.toFixed(1)} s, untouched pairs ${JSON.stringify(done.traffic)}`);
});

test("a pod on the new node reaches the pods on the others, and they reach it", async () => {
    const pod = await steps.podOnAdded();
    for (const other of steps.lab.untouched) {
        assert.ok(await ping(steps.lab.cluster, pod, other.ip, 5), `${pod.ifaceId} → ${other.ifaceId}`);
        assert.ok(await ping(steps.lab.cluster, other, pod.ip, 5), `${other.ifaceId} → ${pod.ifaceId}`);
    }
});

test("a further up changes nothing", async () => {
    const r = await apply(steps.lab.options);
    assert.equal(r.ok, true, r.error);
    assert.deepEqual(
        r.ops.filter((o) => o.op !== "same").map((o) => `${o.op} ${o.name}`),
        [],
    );
});
