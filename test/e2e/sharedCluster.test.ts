// One lab cluster for every check that leaves the others' ground as it found it: 3 Debian unstable
// hosts in dual stack, Kubernetes v1.36 with the upstream kubelet and containerd, ovn-kubernetes
// 1.2 interconnect (a zone per node, local gateway mode) with `multicast` on and node2
// `egressAssignable`, applied from bare hosts by the offline engine. In order: the upgrade to 1.3
// under traffic (./sharedCluster/upgrade.ts), what only the upstream kubelet does
// (./sharedCluster/kubelet.ts), dual stack (./sharedCluster/dualStack.ts),
// the release's features (./sharedCluster/features.ts, which moves `egressAssignable` to node3 by
// one up); then a second up and a refresh change nothing, and destroy leaves every host as it was
// before the first up. Bringing a cluster up costs more than all these checks together, which is
// why they share one. Phases print their wall time.
import { test } from "node:test";
import type { OvnKubernetesRelease } from "../../lab/localcluster/labReleases";
import { assertUpAndRefreshChangeNothing, type LabStackSettings } from "../../lab/scenarios/ovnkubeLab";
import { assertDestroyLeavesHosts, familyLabForFile } from "./support/familyProof";
import { phase } from "./support/phase";
import { kubeletChecks, LIMITED } from "./sharedCluster/kubelet";
import { upgradeChecks } from "./sharedCluster/upgrade";
import { DUAL_STACK_SERVICE, dualStackChecks, NODE_PORT_SERVICE } from "./sharedCluster/dualStack";
import { FEATURE_DEPLOYMENTS, featureChecks, type StackWithAssignable } from "./sharedCluster/features";

/** Local gateway mode: interconnect's other gateway mode (interconnect.test.ts runs shared). */
const stackOn = (version: OvnKubernetesRelease, node: string): LabStackSettings => ({
    ovnkube: { version, gatewayMode: "local", features: { multicast: true } },
    nodeSettings: { [node]: { egressAssignable: true } },
});
const stack: StackWithAssignable = (node) => stackOn("1.3", node);
const family = familyLabForFile("shared", "dual", { release: "1.2", stack: stackOn("1.2", "node2") });

upgradeChecks(family, stack("node2"));
kubeletChecks(family);
dualStackChecks(family);
featureChecks(family, stack);

test("a second up and a refresh change nothing", async () => {
    await phase("second up and refresh", () => assertUpAndRefreshChangeNothing(family().lab.offline));
});

test("destroy leaves every host as it was before the first up", () =>
    assertDestroyLeavesHosts(family(), [DUAL_STACK_SERVICE, NODE_PORT_SERVICE], [{ name: LIMITED }, ...FEATURE_DEPLOYMENTS]));
