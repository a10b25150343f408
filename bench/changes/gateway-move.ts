// Benchmark scenario: the shared gateway moves from node4 to node3 on a live 4-host Pulumi-mode
// cluster while pods on node1 and node2 ping each other (test/e2e/gatewayMove.test.ts proves it).
import type { ChangeScenario } from "../changes";
import { bringUpGatewayLab, changeGateways } from "@ovn-kubernetes-as-code/lab/scenarios";

export const scenario: ChangeScenario = {
    name: "gateway-move",
    async run() {
        const lab = await bringUpGatewayLab("lbbgw");
        try {
            const o = await changeGateways(lab, ["node3"]);
            if (!o.result.ok) throw new Error(`gateway move: ${o.result.error}`);
            return {
                upSeconds: o.seconds,
                sent: o.traffic.reduce((n, t) => n + t.sent, 0),
                lost: o.traffic.reduce((n, t) => n + t.lost, 0),
            };
        } finally {
            await lab.close();
        }
    },
};
