// Benchmark scenario: geneve → vxlan on a live 3-host Pulumi-mode cluster, which `up` refuses
// before touching anything (test/e2e/liveLab/tunnelType.ts proves it); the time is that of the
// refused up, the loss that of the pods on node1 and node2 meanwhile.
import type { ChangeScenario } from "../changes";
import { bringUpLiveLab, changeEncapType } from "@ovn-kubernetes-as-code/lab/scenarios";

export const scenario: ChangeScenario = {
    name: "tunnel-type",
    async run() {
        const lab = await bringUpLiveLab("lbbtun", "tun");
        try {
            const o = await changeEncapType(lab, "vxlan");
            if (o.result.ok) throw new Error("geneve → vxlan was not refused");
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
