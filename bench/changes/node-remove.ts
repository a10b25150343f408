// Benchmark scenario: node2 drained and removed from a live Pulumi-mode stack while pods on node1
// and node3 ping each other (test/e2e/nodeChanges.test.ts proves it, and the refusal before the drain).
import { figures, type ChangeScenario } from "../changes";
import { removeNodeSteps, ok } from "@ovn-kubernetes-as-code/lab/scenarios";

export const scenario: ChangeScenario = {
    name: "node-remove",
    async run() {
        const steps = await removeNodeSteps("labrm");
        try {
            await steps.drain();
            steps.dropFromStack();
            const o = await steps.upWithTraffic();
            ok(o.result, "node removal");
            return figures(o);
        } finally {
            await steps.lab.close();
        }
    },
};
