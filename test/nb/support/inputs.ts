// Checked inputs of the three kinds for the dev stack, as `check` returns them (for pure tests).
import { checkInputs } from "../../../components/nb/resources/kindInputs";
import { clusterRouterKind } from "../../../components/nb/kinds/clusterRouter";
import { gatewayRouterKind } from "../../../components/nb/kinds/gatewayRouter";
import { nodeSwitchKind } from "../../../components/nb/kinds/nodeSwitch";
import { devModel, GATEWAY_HOST, OWNER } from "../../../lab/harness/env";

export const TEST_KEY = "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAAtestonly\n-----END OPENSSH PRIVATE KEY-----\n";

export function devInputs() {
    const model = devModel();
    const nb = {
        ssh: { host: "127.0.0.1", port: 2222, user: "root", hostKey: model.hosts[0].ssh.hostKey!, insecureIgnoreHostKey: false },
        privateKey: TEST_KEY,
    };
    const checked = (kind: typeof nodeSwitchKind | typeof clusterRouterKind | typeof gatewayRouterKind, raw: Record<string, unknown>) => {
        const { inputs, failures } = checkInputs(kind, raw);
        if (failures.length > 0) throw new Error(JSON.stringify(failures));
        return inputs;
    };
    return {
        model,
        router: checked(clusterRouterKind, { nb, owner: OWNER, router: model.clusterRouter }),
        node: checked(nodeSwitchKind, { nb, owner: OWNER, network: model.nodeNetworks[0] }),
        gateway: checked(gatewayRouterKind, { nb, owner: OWNER, gateway: model.gateways[0], ...GATEWAY_HOST }),
    };
}
