// One lab cluster for every check of the interconnect architecture that leaves the others' ground
// as it found it: 3 Debian unstable hosts in dual stack, Kubernetes v1.36 with the upstream kubelet
// and containerd, ovn-kubernetes 1.2 interconnect (a zone per node, local gateway mode) with
// `multicast` and `adminNetworkPolicy` on and node2 `egressAssignable`, applied from bare hosts by
// the offline engine. In order: the upgrade to 1.3 under traffic (./sharedCluster/upgrade.ts), every
// zone as planned and a hand-edited annotation undone (./sharedCluster/zones.ts), what only the
// upstream kubelet does (./sharedCluster/kubelet.ts), dual stack (./sharedCluster/dualStack.ts),
// node identities (./sharedCluster/identities.ts), the release's features
// (./sharedCluster/features.ts, which moves `egressAssignable` to node3 by one up), admin network
// policy (./sharedCluster/adminNetworkPolicy.ts); with the workloads gone, one writer per NB cell,
// and node3 leaving and joining under traffic (./sharedCluster/nodeChurn.ts); last, destroy leaves
// every host as it was before the first up. Bringing a cluster up costs more than all these checks
// together, which is why they share one. Phases print their wall time.
import assert from "node:assert/strict";
import { test } from "node:test";
import type { OvnKubernetesRelease } from "../../lab/localcluster/labReleases";
import { apply } from "../../lab/offline/api";
import { writeLabStack, type LabStackSettings } from "../../lab/scenarios/ovnkubeLab";
import { assertDestroyLeavesHosts, familyLabForFile, removeFamilyWorkloads } from "./support/familyProof";
import { kubeletChecks, LIMITED } from "./sharedCluster/kubelet";
import { upgradeChecks } from "./sharedCluster/upgrade";
import { DUAL_STACK_SERVICE, dualStackChecks, NODE_PORT_SERVICE } from "./sharedCluster/dualStack";
import { FEATURE_DEPLOYMENTS, featureChecks, type StackWithAssignable } from "./sharedCluster/features";
import { ADMIN_NETWORK_POLICY_DEPLOYMENTS, adminNetworkPolicyChecks } from "./sharedCluster/adminNetworkPolicy";
import { zoneChecks } from "./sharedCluster/zones";
import { identityChecks } from "./sharedCluster/identities";
import { nodeChurnChecks } from "./sharedCluster/nodeChurn";

const ID = "shared";
/** Local gateway mode in interconnect (ipv6Only.test.ts runs shared, centralized.test.ts local). */
const stackOn = (version: OvnKubernetesRelease, node: string): LabStackSettings => ({
    ovnkube: { version, gatewayMode: "local", features: { multicast: true, adminNetworkPolicy: true } },
    nodeSettings: { [node]: { egressAssignable: true } },
});
const stack: StackWithAssignable = (node) => stackOn("1.3", node);
const family = familyLabForFile(ID, "dual", { release: "1.2", stack: stackOn("1.2", "node2") });

upgradeChecks(family, stack("node2"));
zoneChecks(family, ID);
kubeletChecks(family);
dualStackChecks(family);
identityChecks(family);
featureChecks(family, stack);
adminNetworkPolicyChecks(family);

// The features left `egressAssignable` on node3, which is about to leave: node2 holds it again.
test("the checks' workloads removed; egressAssignable back on node2 in one up", async () => {
    await removeFamilyWorkloads(
        family(),
        [DUAL_STACK_SERVICE, NODE_PORT_SERVICE],
        [{ name: LIMITED }, ...FEATURE_DEPLOYMENTS, ...ADMIN_NETWORK_POLICY_DEPLOYMENTS],
    );
    const { lab } = family();
    writeLabStack(lab, lab.offline.stackFile!, stack("node2"));
    const back = await apply(lab.offline);
    assert.equal(back.ok, true, back.error);
});

nodeChurnChecks(family, stack("node2"));

test("destroy leaves every host as it was before the first up", () => assertDestroyLeavesHosts(family(), []));
