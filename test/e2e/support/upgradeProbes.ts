// What an upgrade under probes must show, in either architecture: the up succeeded, probes ran
// through it both ways, and none was lost.
import assert from "node:assert/strict";
import type { Rollout } from "../../../lab/scenarios/ovnkubeUpgrade";

/** Asserts the rollout's up succeeded and its probes (both ways between `pair`) ran and lost nothing; prints them. */
export function assertRolloutLostNothing(rollout: Rollout, pair: string): void {
    assert.equal(rollout.result.ok, true, rollout.result.error);
    const traffic = rollout.traffic;
    console.log(`pod-to-pod probes during the upgrade (${pair}): ${traffic.map((t) => `${t.lost}/${t.sent} lost`).join(", ")}`);
    assert.deepEqual(
        traffic.map((t) => t.lost),
        [0, 0],
        "no probe between the pods was lost while the release rolled",
    );
    assert.ok(
        traffic.every((t) => t.sent > 20),
        "probes ran through the upgrade",
    );
}
