// IPv6 only end to end: 3 Debian unstable hosts, Kubernetes 1.36 with an IPv6 service range and
// every kubelet's --node-ip IPv6, ovn-kubernetes 1.3 interconnect applied over SSH to the hosts'
// IPv6 addresses, geneve between their IPv6 addresses. The workload proof on one lab cluster: a
// Deployment's pods get one IPv6 address each in their node's planned subnet; ping6 across every
// pair and from every host; a Service answers at its IPv6 ClusterIP, a NodePort Service from the
// outside at every node (shared gateway mode, the default); the outside sees each pod's
// traffic from its node's IPv6 address; destroy leaves every host as it was. Its first up comes after
// three cut short (the engine's process group killed during the zone databases, a host command and
// the Kubernetes objects: docs/faults.md), and converges with nothing done by hand.
import assert from "node:assert/strict";
import { test } from "node:test";
import { hostExec } from "../../lab/localcluster";
import { hostIp6 } from "../../lab/localcluster/state";
import { bundlesOn, upKilledAt } from "../../lab/scenarios/killedUp";
import { assertUpAndRefreshChangeNothing } from "../../lab/scenarios/ovnkubeLab";
import {
    assertDestroyLeavesHosts,
    assertNodePortFromOutside,
    assertOutsideEveryFamily,
    assertPingEveryFamily,
    assertServiceEveryFamily,
    SERVER_LABEL,
    familyLabForFile,
} from "./support/familyProof";
import { assertPlannedAddresses } from "./support/workloadProof";

const ID = "e2esix";
const SERVICE = "six";
const NODE_PORT_SERVICE = "six-nodeport";

/**
 * Where the first up is cut short, in the order it meets them: the zone databases (the project's NB
 * writes in ovnkube mode), a host command of the chassis, a Kubernetes object. Each kill ends a new up; the up
 * that brings the cluster up starts from what they left.
 */
const KILL_POINTS: Array<[string, RegExp]> = [
    ["the zone databases", /command:remote:Command\s+\S+-zone-databases\s+created/],
    ["a host command", /command:remote:Command\s+(?!\S*zone-databases)\S+\s+created/],
    ["the Kubernetes objects", /\+\s+kubernetes:\S+\s+\S+\s+created/],
];
const kills: string[] = [];

const family = familyLabForFile(ID, "ipv6", {
    beforeFirstUp: async (lab) => {
        for (const [point, at] of KILL_POINTS) {
            const t0 = Date.now();
            const line = await upKilledAt(lab.offline, at);
            kills.push(`${point} after ${((Date.now() - t0) / 1000).toFixed(1)} s: ${line.trim()}`);
        }
    },
});
const lab = () => family().lab;
/** One pod per node, sorted by node: [client, server, other]. */
const pods = () => family().pods;

test("the engine killed during the zone databases' NB writes, a host command and the Kubernetes objects: the up after it converged, every host holds one whole bundle, and a second up and a refresh change nothing", async () => {
    for (const k of kills) console.log(`# engine killed at ${k}`);
    assert.deepEqual(
        kills.map((k) => k.split(" after ")[0]),
        KILL_POINTS.map(([point]) => point),
    );
    for (const host of lab().cluster.hosts) assert.equal((await bundlesOn(lab().cluster, host.name)).length, 1, host.name);
    await assertUpAndRefreshChangeNothing(lab().offline);
});

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

test("a NodePort Service answers from the outside at every node's IPv6 address (shared gateway mode)", () =>
    assertNodePortFromOutside(lab(), NODE_PORT_SERVICE, pods()[1]));

test("pods reach the outside over IPv6, SNATed to their node's IPv6 address", () => assertOutsideEveryFamily(lab(), pods()));

test("destroy leaves every host as it was before the first up", () => assertDestroyLeavesHosts(family(), [SERVICE, NODE_PORT_SERVICE]));
