// Benchmark scenario: node3 leaving a running interconnect cluster (ovn-kubernetes 1.3, 3 Debian
// unstable hosts) the way an operator removes it, while pods on node1 and node2 probe each other
// (test/e2e/sharedCluster.test.ts and test/e2e/centralized.test.ts prove it in both architectures).
import type { ChangeScenario } from "../changes";
import { onOvnkubeLab, underProbes } from "../ovnkubeScenario";
import { ok, withoutHost, writeLabStack, removeOvnkubeNode } from "@ovn-kubernetes-as-code/lab/scenarios";

const GOES = "node3";

export const scenario: ChangeScenario = {
    name: "ovnkube-node-remove",
    run: () =>
        onOvnkubeLab("labrmk", { hosts: 3 }, async (lab) => {
            const without = withoutHost(lab, GOES);
            const removal = await removeOvnkubeNode(lab, lab.model, GOES, ["node1", "node2"], () =>
                writeLabStack(without, lab.offline.stackFile!),
            );
            ok(removal.done, "node removal");
            if (removal.left.length > 0) throw new Error(`rows of ${GOES} left behind:\n${removal.left.join("\n")}`);
            return underProbes(removal.upSeconds, removal.traffic);
        }),
};
