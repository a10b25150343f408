// What a node leaving or joining a running ovnkube-mode cluster must show, in either architecture:
// the removal refused at preview while ovnkube keeps the node (naming the row and the way), planning
// nothing; then done by one up; and no probe between pods on two untouched nodes lost either way.
import assert from "node:assert/strict";
import type { NodeRemoval } from "../../../lab/scenarios/ovnkubeNodeRemoval";
import type { NodeAddition } from "../../../lab/scenarios/ovnkubeNodeAddition";
import { changed } from "./upgradeProbes";

const probes = (traffic: ReadonlyArray<{ lost: number; sent: number }>) => traffic.map((t) => `${t.lost}/${t.sent} lost`).join(", ");

/** Refused while `row` (a Logical_Switch or Logical_Switch_Port of the node) is ovnkube's; then removed with no probe lost. */
export function assertRemovalRefusedThenDone(removal: NodeRemoval, node: string, row: string): void {
    assert.equal(removal.refused.ok, false);
    assert.match(
        removal.refused.error ?? "",
        new RegExp(`node ${node}: still a Kubernetes Node \\(ovnkube keeps its ${row} in the Northbound on .*kubectl delete node ${node}`),
    );
    assert.deepEqual(
        removal.refused.ops.filter((o) => o.op !== "same" && !o.error),
        [],
        "the refused preview plans nothing",
    );
    assert.equal(removal.done.ok, true, removal.done.error);
    console.log(`node removal up: ${changed(removal.done).join(", ")}; probes ${probes(removal.traffic)}`);
    assert.deepEqual(
        removal.traffic.map((t) => t.lost),
        [0, 0],
        "pods on the untouched nodes lost no probe",
    );
    assert.deepEqual(removal.left, [], "nothing of the node is left in the NB or SB that stay");
}

/** Added by one up with no probe lost, and the untouched nodes' ovnkube-node pods kept running. */
export function assertAdditionLostNothing(added: NodeAddition): void {
    assert.equal(added.done.ok, true, added.done.error);
    console.log(
        `node add up ${added.upSeconds.toFixed(1)} s: ${changed(added.done).join(", ")}; the cluster manager first gave ${JSON.stringify(added.assigned)}; probes ${probes(added.traffic)}`,
    );
    assert.deepEqual(
        added.traffic.map((t) => t.lost),
        [0, 0],
        "pods on the untouched nodes lost no probe",
    );
    assert.deepEqual(added.nodePodsReplaced, [], "the untouched nodes' ovnkube-node pods were not restarted");
}
