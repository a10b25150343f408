// Benchmark scenario: node2 appended to a live Pulumi-mode stack (its host already up) while pods
// on node1 and node3 ping each other (test/e2e/nodeChanges.test.ts proves it).
import { figures, type ChangeScenario } from "../changes";
import { addNodeSteps, ok } from "@ovn-kubernetes-as-code/lab/scenarios";

export const scenario: ChangeScenario = {
    name: "node-add",
    async run() {
        const steps = await addNodeSteps("labadd");
        try {
            steps.appendToStack();
            const o = await steps.upWithTraffic();
            ok(o.result, "node addition");
            return figures(o);
        } finally {
            await steps.lab.close();
        }
    },
};
