// IPv6 only end to end: 3 Debian unstable hosts, Kubernetes 1.36 with an IPv6 service range and
// every kubelet's --node-ip IPv6, ovn-kubernetes 1.3 interconnect applied over SSH to the hosts'
// IPv6 addresses, geneve between their IPv6 addresses. The workload proof on one lab cluster: a
// Deployment's pods get one IPv6 address each in their node's planned subnet; ping6 across every
// pair and from every host; a Service answers at its IPv6 ClusterIP; the outside sees each pod's
// traffic from its node's IPv6 address; destroy leaves every host as it was.
import assert from "node:assert/strict";
import { test } from "node:test";
import { hostExec } from "../../lab/localcluster";
import { hostIp6 } from "../../lab/localcluster/state";
import {
    assertDestroyLeavesHosts,
    assertOutsideEveryFamily,
    assertPingEveryFamily,
    assertServiceEveryFamily,
    SERVER_LABEL,
    familyLabForFile,
} from "./support/familyProof";
import { assertPlannedAddresses } from "./support/workloadProof";

const ID = "e2esix";
const SERVICE = "six";

const family = familyLabForFile(ID, "ipv6");
const lab = () => family().lab;
/** One pod per node, sorted by node: [client, server, other]. */
const pods = () => family().pods;

test("every chassis tunnels over its IPv6 address", async () => {
    for (const host of lab().cluster.hosts) {
        const r = await hostExec(lab().cluster, host.name, ["ovs-vsctl", "get", "open_vswitch", ".", "external_ids:ovn-encap-ip"]);
        assert.equal(r.stdout.trim().replace(/"/g, ""), hostIp6(lab().cluster, host), host.name);
    }
});

test("every pod gets one IPv6 address, in its node's planned subnet", async () => {
    assert.ok(
        pods().every((p) => p.ips.length === 1 && p.ip.includes(":")),
        pods()
            .map((p) => p.ips.join(","))
            .join("; "),
    );
    await assertPlannedAddresses(lab(), lab().model, pods());
});

test("ping6 succeeds across every pair of pods, and from every host", () => assertPingEveryFamily(lab(), pods()));

test("a Service answers at its IPv6 ClusterIP, keeping the client's address", () =>
    assertServiceEveryFamily(lab(), SERVICE, SERVER_LABEL, "SingleStack", pods()));

test("pods reach the outside over IPv6, SNATed to their node's IPv6 address", () => assertOutsideEveryFamily(lab(), pods()));

test("destroy leaves every host as it was before the first up", () => assertDestroyLeavesHosts(family(), [SERVICE]));
