// What an upgrade to 1.3 must show, in either architecture: its preview rolls the release's
// DaemonSets in place and replaces or deletes nothing; the up succeeds, and probes run through it
// both ways and lose none.
import assert from "node:assert/strict";
import { readStackFile } from "../../../components/config/stackFile";
import { buildClusterModel } from "../../../components/model/clusterModel";
import type { ClusterModel } from "../../../components/model/types";
import { validateConfig } from "../../../components/plan/validate";
import { pullReleaseImage } from "../../../lab/localcluster/kubernetes";
import { preview, type OperationResult } from "../../../lab/offline/api";
import { writeLabStack, type LabStackSettings, type OvnkubeLab } from "../../../lab/scenarios/ovnkubeLab";
import type { Rollout } from "../../../lab/scenarios/ovnkubeUpgrade";
import type { Traffic } from "../../../lab/scenarios/liveChange";
import { phase } from "./phase";

/** What an operation changes, as `<op> <name>`, sorted. */
export const changed = (r: OperationResult): string[] =>
    r.ops
        .filter((o) => o.op !== "same")
        .map((o) => `${o.op} ${o.name}`)
        .sort();

/**
 * 1.3's image put on the nodes (no registry here), the stack written with `stack13`, and its
 * preview: it succeeds, updates each of `daemonSets` in place, and replaces or deletes nothing.
 * Returns the plan of 1.3 and the preview's changes.
 */
export async function previewUpgradeTo13(
    lab: OvnkubeLab,
    stack13: LabStackSettings,
    daemonSets: readonly string[],
): Promise<{ to13: ClusterModel; plan: string[] }> {
    await phase("1.3's image on the nodes", () => pullReleaseImage(lab.cluster, lab.kubernetes, "1.3"));
    const to13 = buildClusterModel(validateConfig(readStackFile(writeLabStack(lab, lab.offline.stackFile!, stack13))));
    const seen = await phase("preview 1.2 → 1.3", () => preview(lab.offline));
    assert.equal(seen.ok, true, seen.error);
    const plan = changed(seen);
    console.log(`preview: ${plan.join(", ")}`);
    for (const ds of daemonSets) assert.ok(plan.includes(`update ${ds}`), `${ds} in ${JSON.stringify(plan)}`);
    assert.deepEqual(
        plan.filter((o) => /^(replace|delete)/.test(o)),
        [],
    );
    return { to13, plan };
}

/** Both probes (a → b, b → a) ran, more than 20 each, and lost nothing `during` what they watched. */
export function assertNoProbeLost(traffic: readonly Traffic[], during: string): void {
    assert.deepEqual(
        traffic.map((t) => t.lost),
        [0, 0],
        `no probe between the pods was lost ${during}`,
    );
    assert.ok(
        traffic.every((t) => t.sent > 20),
        `probes ran ${during}`,
    );
}

/** Asserts the rollout's up succeeded and its probes (both ways between `pair`) ran and lost nothing; prints them. */
export function assertRolloutLostNothing(rollout: Rollout, pair: string): void {
    assert.equal(rollout.result.ok, true, rollout.result.error);
    console.log(`pod-to-pod probes during the upgrade (${pair}): ${rollout.traffic.map((t) => `${t.lost}/${t.sent} lost`).join(", ")}`);
    assertNoProbeLost(rollout.traffic, "while the release rolled");
}
