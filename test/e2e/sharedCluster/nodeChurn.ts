// The shared cluster's life as a whole, then a node leaving and joining it. First, with every
// ovnkube pod recreated, a second up and a refresh change nothing, and every zone's NB has had one
// writer per cell since the first up (read from each NB's own transaction log). Then node3 leaves
// under traffic: refused while it is a Kubernetes Node; once drained and deleted, one up removes its
// zone, leaves no row of it in the other zones and its host as before the first up. Last, node3
// joins again while the cluster runs: the cluster manager restarts for the plan, the node gets its
// planned subnets, id and transit addresses and its own zone, its pods their addresses, and untouched pods lose nothing.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { NODE_ID_ANNOTATION, NODE_TRANSIT_ANNOTATION } from "../../../components/kube/objectNames";
import { apply } from "../../../lab/offline/api";
import { assertUpAndRefreshChangeNothing, writeLabStack, withoutHost, type LabStackSettings } from "../../../lab/scenarios/ovnkubeLab";
import { removeOvnkubeNode } from "../../../lab/scenarios/ovnkubeNodeRemoval";
import { addOvnkubeNode } from "../../../lab/scenarios/ovnkubeNodeAddition";
import { recreateOvnkubePods } from "../../../lab/scenarios/ovnkubePods";
import type { FamilyLab } from "../support/familyProof";
import { processesNamed } from "../support/hostDaemons";
import { assertZoneWriters } from "../support/nbTransactionLog";
import { assertNodeAsPlanned, plannedTransitAnnotation } from "../support/nodePlanProof";
import { zoneLab } from "./zoneLab";
import { phase } from "../support/phase";
import { changed } from "../support/upgradeProbes";
import { assertAdditionLostNothing, assertRemovalRefusedThenDone } from "../support/nodeChurnProof";
import { snapshotHost } from "../support/hostSnapshot";
import { proveJoinedNode } from "../support/workloadProof";

/** The node that leaves and joins again (the last host), and the two that carry the probes. */
const GOES = "node3";
const STAY: [string, string] = ["node1", "node2"];

/** The checks on the shared cluster once its workloads are gone; `stack` is the stack it runs. */
export function nodeChurnChecks(family: () => FamilyLab, stack: LabStackSettings): void {
    const { lab, model, zones, planOf, nbctlOf } = zoneLab(family);

    describe("the cluster's life, and a node leaving and joining", () => {
        test("with the ovnkube pods recreated, a second up and a refresh change nothing; every zone's NB had one writer per cell", async () => {
            await phase("ovnkube pods recreated, up and refresh", async () => {
                await recreateOvnkubePods(lab().admin, model().kube, () => true, 120_000);
                await assertUpAndRefreshChangeNothing(lab().offline);
            });
            for (const zone of zones()) {
                assertZoneWriters(lab().cluster, zone);
            }
        });

        test(`${GOES} leaves under traffic: refused while it is a Kubernetes Node; once drained and deleted, one up removes its zone, no row of it is left in the other zones' NB or SB, its host is as before`, async () => {
            const removal = await phase(`${GOES} removed`, () =>
                removeOvnkubeNode(lab(), model(), GOES, STAY, () =>
                    writeLabStack(withoutHost(lab(), GOES), lab().offline.stackFile!, stack),
                ),
            );
            assertRemovalRefusedThenDone(removal, GOES, `Logical_Switch_Port tstor-${GOES}`);
            assert.deepEqual(
                processesNamed(lab().cluster, ["ovn-northd"]),
                STAY.map((n) => `${n}: ovn-northd`),
                "the node's zone stopped",
            );
            assert.deepEqual(
                await snapshotHost(lab().cluster, GOES),
                family().bareHosts.get(GOES),
                `${GOES} is as it was before the first up`,
            );
            assert.deepEqual(changed(await apply(lab().offline)), [], "a further up changes nothing");
        });

        test(`${GOES} joins again while the cluster runs: the cluster manager restarts for the plan, the node gets its planned subnets, id and transit addresses, its own zone; untouched pods lose nothing, and the other nodes' ovnkube-node keep running`, async () => {
            const restack = () => writeLabStack(lab(), lab().offline.stackFile!, stack);
            restack();
            const added = await phase(`${GOES} added`, () => addOvnkubeNode(lab(), model().kube, GOES, STAY, restack));
            assertAdditionLostNothing(added);
            const plan = planOf(GOES);
            // Of what ran, only the cluster manager's DaemonSet changed (for the plan): the nodes' ovnkube-node
            // select their nodes by the plans' label, so the untouched nodes' pods kept running.
            assert.deepEqual(
                changed(added.done).filter((c) => !c.startsWith("create ")),
                ["update ovn-change-guard", "update ovn-destroy-guard", "update ovn-ovnkube-control-plane"],
            );
            assert.equal(added.annotations[NODE_ID_ANNOTATION], String(plan.nodeId), `${GOES} has its planned node-id`);
            assert.deepEqual(JSON.parse(added.annotations[NODE_TRANSIT_ANNOTATION]), plannedTransitAnnotation(plan));
            await assertNodeAsPlanned(nbctlOf(GOES), plan, added.annotations);
            // Every other zone sees it at its planned transit addresses.
            for (const zone of STAY)
                assert.deepEqual(
                    JSON.parse(await nbctlOf(zone)(["get", "Logical_Switch_Port", `tstor-${GOES}`, "addresses"])),
                    [[plan.transit![0].mac, ...plan.transit!.map((t) => t.cidr)].join(" ")],
                    zone,
                );
            await proveJoinedNode(lab(), model(), ["node1", GOES]);
            assert.deepEqual(changed(await apply(lab().offline)), [], "a further up changes nothing");
        });
    });
}
