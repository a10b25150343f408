// Benchmark scenario: ovn-kubernetes 1.2 → 1.3 (interconnect) on 2 Debian unstable hosts while a
// pod on each node probes the other, until every ovnkube pod of 1.3 runs
// (test/e2e/sharedCluster/upgrade.ts and test/e2e/centralized.test.ts prove it in both architectures).
import type { ChangeScenario } from "../changes";
import { onOvnkubeLab, underProbes } from "../ovnkubeScenario";
import { readStackFile } from "@ovn-kubernetes-as-code/cluster/config";
import { validateConfig } from "@ovn-kubernetes-as-code/cluster/config";
import { buildClusterModel } from "@ovn-kubernetes-as-code/cluster/model";
import { startDemoDeployment } from "@ovn-kubernetes-as-code/lab/localcluster";
import { ok, writeLabStack, upgradeUnderProbes } from "@ovn-kubernetes-as-code/lab/scenarios";

export const scenario: ChangeScenario = {
    name: "ovnkube-upgrade",
    run: () =>
        onOvnkubeLab("labupg", { hosts: 2, release: "1.2" }, async (lab) => {
            const [a, b] = await startDemoDeployment(lab.admin, lab.cluster, {
                name: "bench-upgrade",
                replicas: 2,
                command: ["sleep", "infinity"],
            });
            const file = writeLabStack(lab, lab.offline.stackFile!, { ovnkube: { version: "1.3" } });
            const rollout = await upgradeUnderProbes(lab, buildClusterModel(validateConfig(readStackFile(file))).kube, [a, b]);
            ok(rollout.result, "up 1.2 → 1.3");
            return underProbes(rollout.upSeconds, rollout.traffic);
        }),
};
