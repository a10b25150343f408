// One Pulumi-mode lab (3 Debian 12 hosts, applied once, a pod on node1 and one on node2) for the
// first up's proof (./liveLab/firstUp.ts: topology, packets, a second up, drift repaired) and the
// changes to a running cluster that leave each other's ground as they found it, in order: the
// tunnel type (refused, nothing touched: ./liveLab/tunnelType.ts), node3's gateway bridge renamed
// (./liveLab/gatewayBridgeRename.ts), the overlay MTU raised in place (./liveLab/mtuChange.ts: it
// creates the pods again), the SSH key rotated (./liveLab/keyRotation.ts); then destroy with the
// demo's pods refused and then complete (./liveLab/destroyChecks.ts); last, down leaves no
// process, namespace, link or mount. Pulumi mode, because there the project writes every object
// these changes touch; ovnkube mode's side of them is proven on the objects in test/kube.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { bringUpLiveLab, type LiveLab } from "../../lab/scenarios/liveChange";
import { destroyChecks } from "./liveLab/destroyChecks";
import { firstUpChecks } from "./liveLab/firstUp";
import { leftovers, processesIn, stillRunning } from "../localcluster/leftovers";
import { keyRotationChecks } from "./liveLab/keyRotation";
import { gatewayBridgeRenameChecks } from "./liveLab/gatewayBridgeRename";
import { mtuChangeChecks } from "./liveLab/mtuChange";
import { tunnelTypeChecks } from "./liveLab/tunnelType";

let lab: LiveLab | undefined;
const live = (): LiveLab => {
    if (!lab) throw new Error("the live lab is not up");
    return lab;
};

const ID = "lblive";

before(async () => {
    lab = await bringUpLiveLab(ID, "live");
});
after(async () => {
    await lab?.close();
});

firstUpChecks(live, ID);
tunnelTypeChecks(live);
gatewayBridgeRenameChecks(live);
mtuChangeChecks(live);
keyRotationChecks(live);
destroyChecks(live);

test("down leaves no process, namespace, link or mount behind", async () => {
    const daemons = processesIn(leftovers(ID).netns);
    assert.ok(daemons.length > 0, "the hosts ran no process to take down");
    await lab?.close();
    lab = undefined;
    assert.deepEqual(stillRunning(daemons), []);
    assert.deepEqual(leftovers(ID), { netns: [], links: [], mounts: [] });
});
