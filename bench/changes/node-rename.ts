// Benchmark scenario: node2 renamed node2b on a live Pulumi-mode stack, as the refusal of a one-step
// rename says: a removal `up`, then an addition `up` (test/e2e/nodeChanges.test.ts proves it); the
// time and loss are both `up`s together, while pods on node1 and node3 ping each other.
import { figures, type ChangeScenario } from "../changes";
import { renameNodeSteps, ok } from "@ovn-kubernetes-as-code/lab/scenarios";

export const scenario: ChangeScenario = {
    name: "node-rename",
    async run() {
        const steps = await renameNodeSteps("labren");
        try {
            const { removed, added } = await steps.renameInTwoUps();
            ok(added.result, "node addition under the new name");
            const [a, b] = [figures(removed), figures(added)];
            return { upSeconds: a.upSeconds + b.upSeconds, sent: a.sent + b.sent, lost: a.lost + b.lost };
        } finally {
            await steps.lab.close();
        }
    },
};
