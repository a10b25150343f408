// Benchmark scenario: the overlay MTU raised from 1400 to 1442 on a live 3-host Pulumi-mode
// cluster while pods on node1 and node2 ping each other (test/e2e/liveLab/mtuChange.ts proves it).
import type { ChangeScenario } from "../changes";
import { bringUpLiveLab, changeMtu, NEW_MTU } from "@ovn-kubernetes-as-code/lab/scenarios";

export const scenario: ChangeScenario = {
    name: "mtu-change",
    async run() {
        const lab = await bringUpLiveLab("lbbmtu", "mtu");
        try {
            const o = await changeMtu(lab, NEW_MTU);
            if (!o.result.ok) throw new Error(`mtu change: ${o.result.error}`);
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
