// Benchmark scenario: node3 joining a running interconnect cluster (ovn-kubernetes 1.3, 3 Debian
// unstable hosts) while pods on node1 and node2 probe each other: it is first removed the operator's
// way, then its kubelet registers it again and the stack lists it (test/e2e/sharedCluster.test.ts and
// test/e2e/centralized.test.ts prove both in both architectures). The figures are the addition's.
import type { ChangeScenario } from "../changes";
import { onOvnkubeLab, underProbes } from "../ovnkubeScenario";
import { ok, withoutHost, writeLabStack, addOvnkubeNode, removeOvnkubeNode } from "@ovn-kubernetes-as-code/lab/scenarios";

const JOINS = "node3";

export const scenario: ChangeScenario = {
    name: "ovnkube-node-add",
    run: () =>
        onOvnkubeLab("labaddk", { hosts: 3 }, async (lab) => {
            const without = withoutHost(lab, JOINS);
            ok(
                (await removeOvnkubeNode(lab, lab.model, JOINS, ["node1", "node2"], () => writeLabStack(without, lab.offline.stackFile!)))
                    .done,
                "node removal",
            );
            const added = await addOvnkubeNode(lab, lab.model.kube, JOINS, ["node1", "node2"], () =>
                writeLabStack(lab, lab.offline.stackFile!),
            );
            ok(added.done, "node addition");
            return underProbes(added.upSeconds, added.traffic);
        }),
};
