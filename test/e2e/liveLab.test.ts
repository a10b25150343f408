// Changes to a running cluster that leave each other's ground as they found it, on one Pulumi-mode
// lab (3 Debian 12 hosts, applied once, a pod on node1 and one on node2), in order: the tunnel type
// (refused, nothing touched: ./liveLab/tunnelType.ts), node3's gateway bridge renamed
// (./liveLab/gatewayBridgeRename.ts), the overlay MTU raised in place (./liveLab/mtuChange.ts: it
// creates the pods again), the SSH key rotated (./liveLab/keyRotation.ts); last, destroy with the
// demo's pods refused and then complete
// (./liveLab/destroyChecks.ts). Pulumi mode, because there the project writes every object these
// changes touch; ovnkube mode's side of them is proven on the objects in test/kube.
import { after, before } from "node:test";
import { bringUpLiveLab, type LiveLab } from "../../lab/scenarios/liveChange";
import { destroyChecks } from "./liveLab/destroyChecks";
import { keyRotationChecks } from "./liveLab/keyRotation";
import { gatewayBridgeRenameChecks } from "./liveLab/gatewayBridgeRename";
import { mtuChangeChecks } from "./liveLab/mtuChange";
import { tunnelTypeChecks } from "./liveLab/tunnelType";

let lab: LiveLab | undefined;
const live = (): LiveLab => {
    if (!lab) throw new Error("the live lab is not up");
    return lab;
};

before(async () => {
    lab = await bringUpLiveLab("lblive", "live");
});
after(async () => {
    await lab?.close();
});

tunnelTypeChecks(live);
gatewayBridgeRenameChecks(live);
mtuChangeChecks(live);
keyRotationChecks(live);
destroyChecks(live);
