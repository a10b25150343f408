// IPv6 only end to end: 3 Debian unstable hosts, Kubernetes 1.36 with an IPv6 service range and
// every kubelet's --node-ip IPv6, ovn-kubernetes 1.3 interconnect applied over SSH to the hosts'
// IPv6 addresses, geneve between their IPv6 addresses. The workload proof on one lab cluster: a
// Deployment's pods get one IPv6 address each in their node's planned subnet; ping6 across every
// pair and from every host; a Service answers at its IPv6 ClusterIP, a NodePort Service from the
// outside at every node (shared gateway mode, the default); the outside sees each pod's
// traffic from its node's IPv6 address; destroy leaves every host as it was. Its first up comes after
// three cut short (the engine's process group killed during the zone databases, a host command and
// the Kubernetes objects: docs/faults.md), and converges with nothing done by hand; before destroy,
// the API server is restarted during an up's Kubernetes objects, and one zone's NB crashes while
// ovnkube writes the pods of a new Deployment.
import assert from "node:assert/strict";
import { test } from "node:test";
import { hostExec } from "../../lab/localcluster";
import { startDemoDeployment } from "../../lab/localcluster/kubeWorkloads";
import { EGRESS_ASSIGNABLE_LABEL } from "../../components/config/features";
import { restartApiServer } from "../../lab/localcluster/kube";
import { apply } from "../../lab/offline/api";
import { continuousPing, hostOut } from "../../lab/scenarios/liveChange";
import { asLocalPod } from "../../lab/scenarios/ovnkubeUpgrade";
import { hostIp6 } from "../../lab/localcluster/state";
import { bundlesOn, upKilledAt } from "../../lab/scenarios/killedUp";
import { assertUpAndRefreshChangeNothing, writeLabStack } from "../../lab/scenarios/ovnkubeLab";
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
import { assertNoProbeLost } from "./support/upgradeProbes";
import { reportFaultCell, secondsSince } from "../support/faultMatrix";

const ID = "e2esix";
const SERVICE = "six";
const NODE_PORT_SERVICE = "six-nodeport";
/** The Deployment created while a zone's NB crashes. */
const LATE = "six-late";

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
const kills: Array<{ point: string; seconds: number; line: string }> = [];
/** When the last kill ended: the up that converges starts then. */
let killsEnd = 0;

const family = familyLabForFile(ID, "ipv6", {
    beforeFirstUp: async (lab) => {
        for (const [point, at] of KILL_POINTS) {
            const t0 = Date.now();
            const line = await upKilledAt(lab.offline, at);
            kills.push({ point, seconds: secondsSince(t0), line: line.trim() });
        }
        killsEnd = Date.now();
    },
});
const lab = () => family().lab;
/** One pod per node, sorted by node: [client, server, other]. */
const pods = () => family().pods;
const zoneSh = (host: string, script: string) => hostOut(lab().cluster, host, ["bash", "-c", script]);

test("the engine killed during the zone databases' NB writes, a host command and the Kubernetes objects: the up after it converged, every host holds one whole bundle, and a second up and a refresh change nothing", async (t) => {
    const converged = secondsSince(killsEnd);
    for (const k of kills) console.log(`# engine killed at ${k.point} after ${k.seconds.toFixed(1)} s: ${k.line}`);
    assert.deepEqual(
        kills.map((k) => k.point),
        KILL_POINTS.map(([point]) => point),
    );
    for (const host of lab().cluster.hosts) assert.equal((await bundlesOn(lab().cluster, host.name)).length, 1, host.name);
    await assertUpAndRefreshChangeNothing(lab().offline);
    for (const k of kills)
        reportFaultCell(t, {
            fault: "the engine killed (SIGKILL of its process group)",
            point: `${k.point}, ${k.seconds.toFixed(1)} s into the up`,
            mode: "ovnkube",
            outcome: "the next up converged (pending creates adopted); one whole bundle per host; a second up and a refresh change nothing",
            convergeSeconds: converged,
        });
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

test("the API server restarted during an up's Kubernetes objects (a Node's label): that up completes or fails naming the API server; the next up converges; pods lose no probe", async (t) => {
    const [a, b] = [pods()[0], pods()[1]];
    const probes = [continuousPing(lab().cluster, asLocalPod(a), b.ip), continuousPing(lab().cluster, asLocalPod(b), a.ip)];
    writeLabStack(lab(), lab().offline.stackFile!, { nodeSettings: { [b.node]: { egressAssignable: true } } });
    let restart: Promise<{ downMs: number }> | undefined;
    // Killed in the step's report (restartApiServer kills before its first await): the next Kubernetes steps meet no API server.
    const up = await apply({
        ...lab().offline,
        onOp: (o) => void (restart ??= o.type.startsWith("kubernetes:") ? restartApiServer(lab().cluster) : undefined),
    });
    assert.ok(restart, "the up reached the Kubernetes objects");
    const { downMs } = await restart;
    const restarted = Date.now();
    const server = lab().kubernetes.controlPlane.apiServerUrl.replace(/^https:\/\//, "");
    if (!up.ok) assert.ok(up.error!.includes(server), `the failed up names the API server ${server}: ${up.error}`);
    const next = await apply(lab().offline);
    assert.equal(next.ok, true, next.error);
    const convergeSeconds = secondsSince(restarted);
    const node = await lab().admin.get({ apiVersion: "v1", kind: "Node", name: b.node });
    assert.equal(node.metadata?.labels?.[EGRESS_ASSIGNABLE_LABEL], "", `${b.node}'s labels: ${JSON.stringify(node.metadata?.labels)}`);
    await assertUpAndRefreshChangeNothing(lab().offline);
    const traffic = await Promise.all(probes.map((p) => p.stop()));
    console.log(
        `# API server down ${(downMs / 1000).toFixed(1)} s; the up ${up.ok ? "completed" : `failed: ${up.error}`}; probes ${traffic.map((x) => `${x.lost}/${x.sent}`).join(", ")} lost`,
    );
    assertNoProbeLost(traffic, "while the API server restarted");
    reportFaultCell(t, {
        fault: "the API server restarted (SIGKILL, started again)",
        point: "the Kubernetes objects (a Node's label)",
        mode: "ovnkube",
        outcome: `down ${(downMs / 1000).toFixed(1)} s; the up ${up.ok ? "completed" : "failed naming it"}; the next converged; ${traffic.reduce((n, x) => n + x.sent, 0)} probes, none lost`,
        convergeSeconds,
    });
});

test("one zone's NB crashes while ovnkube writes (pods created): its monitor restarts it, ovnkube writes again, each pod has one port, and the next up and a refresh change nothing", async (t) => {
    const zone = pods()[2].node;
    const nbPid = async () => (await zoneSh(zone, "cat /run/ovn/ovnnb_db.pid")).trim();
    const before = await nbPid();
    const creating = startDemoDeployment(lab().admin, lab().cluster, { name: LATE, replicas: 3, command: ["sleep", "infinity"] });
    // A crash (SIGSEGV): ovn-ctl's --monitor parent starts the daemon again. It would not after a SIGKILL
    // (OVS lib/daemon-unix.c should_restart); systemd's Restart=on-failure does, on real hosts (docs/faults.md).
    await zoneSh(zone, `kill -SEGV ${before}`);
    const killed = Date.now();
    const late = await creating;
    assert.notEqual(await nbPid(), before, `${zone}'s NB was started again`);
    await assertPlannedAddresses(lab(), lab().model, late);
    await assertPingEveryFamily(lab(), [...late, ...pods()]);
    const convergeSeconds = secondsSince(killed);
    // All or nothing: each pod of the zone has its one port, no transaction left half a pod behind.
    const ports = (await zoneSh(zone, "ovn-nbctl --bare --columns=name list Logical_Switch_Port")).split("\n").filter(Boolean);
    for (const pod of [...late, ...pods()].filter((p) => p.node === zone))
        assert.equal(
            ports.filter((p) => p === `${pod.namespace}_${pod.name}`).length,
            1,
            `${pod.name}'s port in ${zone}'s NB: ${ports.join(", ")}`,
        );
    assert.equal(new Set(ports).size, ports.length, `a port twice in ${zone}'s NB: ${ports.join(", ")}`);
    await assertUpAndRefreshChangeNothing(lab().offline);
    reportFaultCell(t, {
        fault: "one zone's NB ovsdb-server crashed (SIGSEGV; interconnect)",
        point: "while ovnkube writes, pods being created",
        mode: "ovnkube",
        outcome: `its monitor restarted it; the pods got their planned addresses and ping; one port each; the next up and a refresh changed nothing`,
        convergeSeconds,
    });
});

test("destroy leaves every host as it was before the first up", () =>
    assertDestroyLeavesHosts(family(), [SERVICE, NODE_PORT_SERVICE], [{ name: LATE }]));
