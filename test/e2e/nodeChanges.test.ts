// Node changes on one running Pulumi-mode cluster of 3 hosts, each under traffic between pods on
// the nodes it does not touch (node1 and node3), in turn:
// - removal: while a pod still sits on node2's switch, preview says so and `up` refuses before
//   anything is touched; after the drain, `up` deletes exactly node2's resources, its chassis,
//   encap and port bindings leave the SB and its host keeps nothing of ours;
// - addition: node2 appended to the stack again creates only its resources, moves nothing of the
//   others, and its pods reach theirs;
// - rename: validate (given the stack file as last applied) warns, preview says the node would be
//   replaced and why a one-step rename is refused, `up` refuses before touching anything; done as
//   the message says, a removal and an addition, the new name's switch and chassis appear.
// The untouched pods lose no probe in any `up`.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { after, before, describe, test } from "node:test";
import YAML from "yaml";
import { ping } from "../../lab/localcluster";
import { apply, preview } from "../../lab/offline/api";
import { addNodeStepsOn, removeNodeStepsOn, renameNodeStepsOn } from "../../lab/scenarios/nodeScenarios";
import {
    CHANGED,
    chassisOf,
    BOOKKEEPING_UPDATES,
    isNodeResource,
    mentionsNode,
    nodeHostState,
    nodeLab,
    nodeSteps,
    ovnRows,
    splitRows,
    stateNames,
    totals,
    type NodeLab,
    type OvnRows,
} from "../../lab/scenarios/nodeChange";

const ID = "lanode";
const ROOT = path.resolve(__dirname, "../..");
let lab: NodeLab;

before(async () => {
    lab = await nodeLab(ID, 3);
});

after(async () => {
    await lab?.close();
});

async function furtherUpChangesNothing(): Promise<void> {
    const r = await apply(lab.options);
    assert.equal(r.ok, true, r.error);
    assert.deepEqual(
        r.ops.filter((o) => o.op !== "same").map((o) => `${o.op} ${o.name}`),
        [],
    );
}

const emptyTables = (db: Record<string, string[]>) => Object.fromEntries(Object.keys(db).map((t) => [t, []]));

describe("removing node2", () => {
    let steps: Awaited<ReturnType<typeof removeNodeStepsOn>>;
    let rowsBefore: OvnRows;
    let markers: (line: string) => boolean;
    let resourcesBefore: string[];
    const network = () => steps.network;

    before(async () => {
        steps = await removeNodeStepsOn(lab);
        rowsBefore = await ovnRows(lab);
        resourcesBefore = stateNames(lab);
        markers = mentionsNode(lab, CHANGED, network().subnet, await chassisOf(lab, CHANGED));
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

    test("a further up changes nothing", furtherUpChangesNothing);
});

describe("adding node2 again", () => {
    let adding: ReturnType<typeof addNodeStepsOn>;
    let rowsBeforeAdd: OvnRows;

    before(async () => {
        adding = addNodeStepsOn(lab);
        rowsBeforeAdd = await ovnRows(lab);
    });

    test("before: the stack has no node2, the SB no chassis of its host", async () => {
        assert.equal(
            adding.lab.model.nodeNetworks.some((n) => n.node === CHANGED),
            false,
        );
        assert.equal(await chassisOf(adding.lab, CHANGED), undefined);
    });

    test("up with node2 appended creates only node2's resources, moves nothing of the others, and loses no probe", async (t) => {
        const model = adding.appendToStack();
        const done = await adding.upWithTraffic();
        assert.equal(done.result.ok, true, done.result.error);
        // The guards learn the longer lists; everything else is a create of node2's, one for each of
        // its resources in the state now, among them its script bundle, chassis, switch and management port.
        const { mine: created, others } = nodeSteps(done.result, CHANGED, "create");
        t.diagnostic(`created: ${created.join(" ")}`);
        assert.deepEqual(others, BOOKKEEPING_UPDATES);
        assert.deepEqual(
            created.sort(),
            stateNames(adding.lab)
                .filter((n) => isNodeResource(n, CHANGED))
                .sort(),
        );
        for (const part of ["scripts", "chassis", "switch", "mgmt"])
            assert.ok(
                created.some((n) => n.includes(part)),
                `no ${part} created: ${created.join(", ")}`,
            );

        const network = model.nodeNetworks.find((n) => n.node === CHANGED)!;
        const chassis = await chassisOf(adding.lab, CHANGED);
        assert.ok(chassis, "node2's chassis is in the SB");
        const after = await ovnRows(adding.lab);
        const markers = mentionsNode(adding.lab, CHANGED, network.subnet, chassis);
        // Every row that existed is still there, unchanged (subnets, router port MACs and networks, join addresses, encaps).
        assert.deepEqual(splitRows(after, markers).untouched, splitRows(rowsBeforeAdd, markers).untouched);
        assert.deepEqual(splitRows(rowsBeforeAdd, markers).mentioning.nb.Logical_Switch, []);
        const mine = splitRows(after, markers).mentioning;
        assert.deepEqual(mine.nb.Logical_Switch.length, 1, JSON.stringify(mine.nb));
        assert.ok(mine.nb.Logical_Switch[0].includes(`subnet=${network.subnet}`), mine.nb.Logical_Switch[0]);
        assert.equal(mine.sb.Encap.length, 1);
        assert.ok(mine.sb.Encap[0].includes(adding.lab.cluster.hosts.find((h) => h.name === CHANGED)!.ip));
        assert.equal(totals(done.traffic).lost, 0, JSON.stringify(done.traffic));
        t.diagnostic(`up ${done.seconds.toFixed(1)} s, untouched pairs ${JSON.stringify(done.traffic)}`);
    });

    test("a pod on the new node reaches the pods on the others, and they reach it", async () => {
        const { pod, remove } = await adding.podOnAdded();
        for (const other of adding.lab.untouched) {
            assert.ok(await ping(adding.lab.cluster, pod, other.ip, 5), `${pod.ifaceId} → ${other.ifaceId}`);
            assert.ok(await ping(adding.lab.cluster, other, pod.ip, 5), `${other.ifaceId} → ${pod.ifaceId}`);
        }
        // Drained again: the rename below removes the node.
        await remove();
    });

    test("a further up changes nothing", furtherUpChangesNothing);
});

describe("renaming node2", () => {
    let renaming: ReturnType<typeof renameNodeStepsOn>;
    let rowsBeforeRename: OvnRows;
    let applied: string;

    before(async () => {
        renaming = renameNodeStepsOn(lab);
        rowsBeforeRename = await ovnRows(lab);
        applied = path.join(lab.work, "Pulumi.applied.yaml");
        fs.copyFileSync(lab.options.stackFile!, applied);
    });

    test("validate, given the stack file as last applied, warns that the node is renamed and so replaced", () => {
        renaming.renameInStack();
        const r = spawnSync(
            process.execPath,
            ["--import", "tsx", "cli/validate.ts", renaming.lab.options.stackFile!, "--previous", applied],
            {
                cwd: ROOT,
                encoding: "utf8",
            },
        );
        assert.equal(r.status, 0, r.stderr);
        const ip = renaming.lab.cluster.hosts.find((h) => h.name === CHANGED)!.ip;
        const index = YAML.parse(fs.readFileSync(applied, "utf8")).config["ovn-kubernetes:nodes"].findIndex(
            (n: { name: string }) => n.name === CHANGED,
        );
        assert.ok(r.stderr.includes(`warning: nodes[${index}].name: "${renaming.to}" is node "${CHANGED}" renamed (${ip}:22)`), r.stderr);
        assert.match(r.stderr, /a rename replaces the node/);
    });

    test("preview shows the node would be replaced and refuses a one-step rename, naming both names and the host", async () => {
        const ip = renaming.lab.cluster.hosts.find((h) => h.name === CHANGED)!.ip;
        const r = await preview(renaming.lab.options);
        assert.equal(r.ok, false);
        assert.ok(r.error!.includes(`node "${CHANGED}" (${ip}:22) is renamed "${renaming.to}": that replaces the node`), r.error);
        assert.ok(
            r.error!.includes(`remove "${CHANGED}" from the stack and run up (drain it first), then add "${renaming.to}" and run up again`),
            r.error,
        );
        assert.deepEqual(await ovnRows(renaming.lab), rowsBeforeRename);
    });

    test("up refuses before touching anything: no step taken, NB, SB and the host as they were, no probe lost", async () => {
        const host = await nodeHostState(renaming.lab, CHANGED, renaming.network.mgmtInterface);
        const refused = await renaming.upWithTraffic();
        assert.equal(refused.result.ok, false);
        assert.match(refused.result.error!, /ChangeGuard ovn-change-guard: .*renaming stopped before anything was changed/s);
        assert.deepEqual(
            refused.result.ops.filter((o) => o.op !== "same" && !o.error),
            [],
        );
        assert.deepEqual(await ovnRows(renaming.lab), rowsBeforeRename);
        assert.deepEqual(await nodeHostState(renaming.lab, CHANGED, renaming.network.mgmtInterface), host);
        assert.equal(totals(refused.traffic).lost, 0, JSON.stringify(refused.traffic));
    });

    test("done as the message says, a removal and then an addition: the new name's switch and chassis, the old ones gone, its management port reached from the pods, no probe lost", async (t) => {
        renaming.undoRename();
        const { removed, added } = await renaming.renameInTwoUps();
        assert.equal(added.result.ok, true, added.result.error);
        t.diagnostic(
            `removal up ${removed.seconds.toFixed(1)} s ${JSON.stringify(removed.traffic)}; addition up ${added.seconds.toFixed(1)} s ${JSON.stringify(added.traffic)}`,
        );
        const rows = await ovnRows(renaming.lab);
        const switches = rows.nb.Logical_Switch.map((l) => l.split(",")[0]);
        assert.ok(switches.includes(renaming.to) && !switches.includes(CHANGED), switches.join(" "));
        // The host keeps its hostname: its one chassis is the new node's (registered anew).
        const chassis = await chassisOf(renaming.lab, CHANGED);
        assert.ok(chassis, "the host's chassis is back in the SB");
        assert.equal(rows.sb.Chassis.length, rowsBeforeRename.sb.Chassis.length);
        assert.equal(
            totals(removed.traffic).lost + totals(added.traffic).lost,
            0,
            JSON.stringify({ removed: removed.traffic, added: added.traffic }),
        );
        // The lab's pods are placed by host name, which the rename does not change: the renamed
        // node's management port (its host end on that host, its logical port on the new switch) stands in.
        const mgmt = renaming.lab.model.nodeNetworks.find((n) => n.node === renaming.to)!.mgmt.ip;
        for (const other of renaming.lab.untouched)
            assert.ok(await ping(renaming.lab.cluster, other, mgmt, 5), `${other.ifaceId} → ${mgmt}`);
    });
});
