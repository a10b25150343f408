// An ovn-kubernetes upgrade in place, first on the shared cluster: it runs 1.2 in its interconnect
// architecture with the spread Deployment's pods on every node; the stack's `ovnkube.version` goes
// to 1.3 and one `up` moves the CRDs, the cluster manager and then the nodes to the new release.
// Preview says what will roll and touches nothing; the pods keep their addresses and lose no probe
// (20 per second, both ways, between node1 and node2) while the release rolls, and keep reaching
// each other; the new release's pods run with its image; going back a release or changing the
// architecture is refused at preview, naming both and the way.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { releaseOf } from "../../../components/config/releases";
import { apply, preview } from "../../../lab/offline/api";
import { writeLabStack, type LabStackSettings } from "../../../lab/scenarios/ovnkubeLab";
import { ovnkubeImages, ovnkubePodsOf } from "../../../lab/scenarios/ovnkubePods";
import { upgradeUnderProbes } from "../../../lab/scenarios/ovnkubeUpgrade";
import { SPREAD, type FamilyLab } from "../support/familyProof";
import { phase } from "../support/phase";
import { assertPodsPing } from "../support/workloadProof";
import { assertRolloutLostNothing, changed, previewUpgradeTo13 } from "../support/upgradeProbes";

/** The upgrade checks, first on the shared cluster brought up on 1.2; `stack13` is its stack on 1.3, which they leave in place. */
export function upgradeChecks(family: () => FamilyLab, stack13: LabStackSettings): void {
    const lab = () => family().lab;
    /** The images the running ovnkube pods were made from. */
    const runningImages = () => ovnkubeImages(lab().admin, lab().model.kube);
    const podIps = async () =>
        Object.fromEntries(
            (await lab().admin.list("v1", "Pod", { namespace: family().pods[0].namespace, labelSelector: `app=${SPREAD}` })).map((p) => [
                p.metadata.name,
                (p.status as { podIPs: Array<{ ip: string }> }).podIPs.map((i) => i.ip),
            ]),
        );

    describe("the upgrade 1.2 → 1.3", () => {
        test("1.2 → 1.3 in one up: preview names what rolls, the pods keep their addresses and reach each other, the new release runs", async () => {
            assert.equal(lab().model.kube.version, "1.2");
            assert.deepEqual(await runningImages(), [releaseOf("1.2").image]);
            const pods = family().pods;
            const before = await podIps();
            assert.deepEqual(Object.keys(before).sort(), pods.map((p) => p.name).sort());

            // The release's DaemonSets roll in place; 1.3's two new CRDs are created.
            const { to13, plan } = await previewUpgradeTo13(lab(), stack13, [
                "ovn-ovnkube-control-plane",
                "ovn-ovnkube-node",
                "ovn-ovnkube-identity",
            ]);
            assert.ok(
                plan.includes("create ovn-ovnkube-crd-vteps.k8s.ovn.org") &&
                    plan.includes("create ovn-ovnkube-crd-clusternetworkconnects.k8s.ovn.org"),
                JSON.stringify(plan),
            );
            assert.deepEqual(await runningImages(), [releaseOf("1.2").image], "preview changed nothing");

            // Probes both ways between the pods on node1 and node2, 20 per second, from before the up
            // until every ovnkube pod of the new release runs.
            const rollout = await phase("up 1.2 → 1.3", () => upgradeUnderProbes(lab(), to13.kube, [pods[0], pods[1]]));
            assertRolloutLostNothing(rollout, `${pods[0].node} ↔ ${pods[1].node}`);
            lab().model = to13;
            assert.deepEqual(await runningImages(), [releaseOf("1.3").image]);

            // The pods were never touched: same pods, same addresses, and they still reach each other.
            assert.deepEqual(await podIps(), before);
            await phase("pods after the upgrade", () => assertPodsPing(lab(), pods));
            const again = await apply(lab().offline);
            assert.deepEqual(changed(again), [], "a second up after the upgrade changes nothing");
            assert.deepEqual(
                ovnkubePodsOf(await lab().admin.list("v1", "Pod", { namespace: lab().model.kube.namespace })).filter(
                    (p) => p.phase !== "Running",
                ),
                [],
            );
        });

        test("going back to 1.2, or to the centralized architecture, is refused at preview, naming both and the way", async () => {
            const file = lab().offline.stackFile!;
            try {
                writeLabStack(lab(), file, { ...stack13, ovnkube: { ...stack13.ovnkube, version: "1.2" } });
                const back = await preview(lab().offline);
                assert.equal(back.ok, false);
                assert.match(
                    back.error ?? "",
                    /ovnkube\.version 1\.3 → 1\.2 stopped before anything was changed: ovn-kubernetes upgrades forward only/,
                );

                writeLabStack(lab(), file, { ...stack13, ovnkube: { ...stack13.ovnkube, architecture: "centralized" }, centrals: 1 });
                const other = await preview(lab().offline);
                assert.equal(other.ok, false);
                assert.match(
                    other.error ?? "",
                    /ovnkube\.architecture interconnect → centralized stopped before anything was changed: .*removed its zone migration in 1\.3/,
                );
                assert.deepEqual(await runningImages(), [releaseOf("1.3").image], "nothing changed");
            } finally {
                writeLabStack(lab(), file, stack13);
            }
        });
    });
}
