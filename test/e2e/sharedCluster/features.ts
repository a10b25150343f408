// The release's default-network features that the stack's `ovnkube.features` turns on, each driven
// the way a user drives it (its custom resource or namespace annotation through the API server,
// node2's `egressAssignable` through the stack) and proven by what the outside namespace (the
// world behind the gateways, given a second address) sees:
// - an EgressFirewall denying 0.0.0.0/0 but one outside address: that address answers, the other
//   does not, and a pod of another namespace still reaches both;
// - an EgressIP for a namespace: its pods on every node reach the outside from the egress IP (whose
//   address the outside resolves to the holder's gateway), other pods from their node's address;
//   then one up moves `egressAssignable` from node2 to node3 and the IP follows (failover time printed);
// - multicast in a namespace annotated for it reaches a receiver on every other node, and nothing
//   arrives in a namespace without the annotation;
// - an EgressQoS rule marks the matching traffic with its DSCP (read by tcpdump in the outside
//   namespace) and leaves other traffic unmarked.
// The checks are IPv4's: the cluster they run on is dual stack.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { EGRESS_ASSIGNABLE_LABEL } from "../../../components/config/features";
import { pollUntil, type KubeObject } from "../../../lab/kubeclient";
import { hostExec } from "../../../lab/localcluster";
import { spareAddress } from "../../../lab/localcluster/addressing";
import { tcpExchange } from "../../../lab/localcluster/checks";
import { addExternalAddress } from "../../../lab/localcluster/external";
import { podRef, startDemoDeployment, type KubePod } from "../../../lab/localcluster/kubeWorkloads";
import { run } from "../../../lab/localcluster/run";
import { apply } from "../../../lab/offline/api";
import { multicastRound } from "../support/multicast";
import { captureOutside, sendUdp } from "../support/outsideCapture";
import { writeLabStack, type LabStackSettings, type OvnkubeLab } from "../../../lab/scenarios/ovnkubeLab";
import type { FamilyLab } from "../support/familyProof";
import { phase } from "../support/phase";

const HOSTS = 3;
/** The custom resources' API (the release's CRDs). */
const OVN_API = "k8s.ovn.org/v1";
/** ovnkube's namespace annotation that lets its pods use multicast (go-controller/pkg/util/namespace_annotation.go, v1.3.0 line 19). */
const MULTICAST_ENABLED = "k8s.ovn.org/multicast-enabled";
/** The statuses the cluster manager writes once every zone applied the rules (clustermanager/status_manager, v1.3.0). */
const FIREWALL_APPLIED = "EgressFirewall Rules applied";
const QOS_APPLIED = "EgressQoS Rules applied";
/** Expedited Forwarding: the TOS byte 0xb8 on the wire. */
const DSCP = 46;
const MULTICAST_GROUP = "239.10.10.10";
const MULTICAST_PORT = 15000;
const QOS_PORT = 15001;

/** One namespace per feature, and one with none of them. */
const NS = {
    firewall: "feat-firewall",
    egressIp: "feat-egressip",
    multicast: "feat-multicast",
    qos: "feat-qos",
    plain: "feat-plain",
} as const;

/** The stack with `node` the only `egressAssignable` one: the checks need `multicast` on (the release's defaults have the egress features). */
export type StackWithAssignable = (node: string) => LabStackSettings;
/** The probe Deployments, one per namespace, for the workloads' removal. */
export const FEATURE_DEPLOYMENTS = Object.values(NS).map((namespace) => ({ name: "probe", namespace }));

let lab: OvnkubeLab;
/** The external namespace's own address (the one the firewall allows) and the second one the test gives it. */
let outsideA: string;
let outsideB: string;
let egressIp: string;
const pods: Record<keyof typeof NS, KubePod[]> = { firewall: [], egressIp: [], multicast: [], qos: [], plain: [] };

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const gatewayOf = (node: string) => lab.model.kube.nodes.find((n) => n.name === node)!.gatewayIps[0];

/** The source the outside sees for a TCP connection from `pod` to `ip` (undefined when nothing answers). */
async function seenFromOutside(pod: KubePod, ip: string, attempts = 2): Promise<string | undefined> {
    const r = await tcpExchange(lab.cluster, { external: true }, ip, { pod: podRef(pod) }, undefined, attempts);
    return r.ok ? r.seenSource : undefined;
}

async function statusOf(apiVersion: string, kind: string, name: string, namespace?: string): Promise<Record<string, unknown>> {
    return ((await lab.admin.get({ apiVersion, kind, name, namespace })).status ?? {}) as Record<string, unknown>;
}

/** Waits, bounded, until the namespaced resource's status.status is `applied`. */
async function awaitApplied(kind: string, namespace: string, applied: string): Promise<void> {
    await pollUntil(
        async () => {
            const status = await statusOf(OVN_API, kind, "default", namespace);
            if (status.status !== applied) throw new Error(`status ${JSON.stringify(status)}`);
            return true;
        },
        { timeoutMs: 60_000, intervalMs: 500, what: `${kind} ${namespace}/default to be "${applied}"` },
    );
}

const egressIpHolders = async () =>
    (((await statusOf(OVN_API, "EgressIP", NS.egressIp)).items ?? []) as Array<{ node: string; egressIP: string }>).map(
        (i) => `${i.egressIP}@${i.node}`,
    );

/** Waits, bounded, until the EgressIP's status names `node` as the only holder. */
async function awaitHolder(node: string, timeoutMs = 90_000): Promise<void> {
    await pollUntil(
        async () => {
            const holders = await egressIpHolders();
            if (holders.join() !== `${egressIp}@${node}`) throw new Error(`holders: ${holders.join(", ") || "none"}`);
            return true;
        },
        { timeoutMs, intervalMs: 200, what: `the EgressIP ${egressIp} on ${node}` },
    );
}

/** The MAC the outside resolves the egress IP to, asked afresh: the gateway that answers for it. */
async function outsideResolves(ip: string, through: KubePod): Promise<string> {
    await run(["ip", "-n", lab.cluster.external.ns, "neigh", "flush", "to", ip]);
    assert.equal(await seenFromOutside(through, outsideA), ip, `${through.name} reaches the outside from ${ip}`);
    const neigh = await run(["ip", "-n", lab.cluster.external.ns, "-o", "neigh", "show", "to", ip]);
    return /lladdr ([0-9a-f:]+)/.exec(neigh.stdout)?.[1] ?? `none (${neigh.stdout.trim()})`;
}

async function breth0Mac(node: string): Promise<string> {
    const r = await hostExec(lab.cluster, node, ["cat", "/sys/class/net/breth0/address"]);
    assert.equal(r.code, 0, r.stderr);
    return r.stdout.trim();
}

function namespaceManifest(name: string, annotations: Record<string, string> = {}): KubeObject {
    return { apiVersion: "v1", kind: "Namespace", metadata: { name, annotations } };
}

/** The feature checks, on the shared cluster brought up with `stackWithAssignable("node2")`; the EgressIP is deleted after them. */
export function featureChecks(shared: () => FamilyLab, stackWithAssignable: StackWithAssignable): void {
    describe("the release's features", () => {
        before(async () => {
            lab = shared().lab;
            outsideA = lab.cluster.external.ip;
            outsideB = await addExternalAddress(lab.cluster, 1);
            egressIp = spareAddress(lab.cluster.subnet, 5);
            await phase("feature workloads", async () => {
                for (const ns of Object.values(NS))
                    await lab.admin.create(namespaceManifest(ns, ns === NS.multicast ? { [MULTICAST_ENABLED]: "true" } : {}));
                // One pod per node where a check spans nodes; one where it does not.
                const replicas: Record<keyof typeof NS, number> = { firewall: 1, egressIp: HOSTS, multicast: HOSTS, qos: 1, plain: HOSTS };
                const started = await Promise.all(
                    (Object.keys(NS) as Array<keyof typeof NS>).map((key) =>
                        startDemoDeployment(
                            lab.admin,
                            lab.cluster,
                            { name: "probe", namespace: NS[key], replicas: replicas[key], command: ["sleep", "infinity"] },
                            180_000,
                        ),
                    ),
                );
                for (const [i, key] of (Object.keys(NS) as Array<keyof typeof NS>).entries()) pods[key] = started[i];
            });
        });

        after(async () => {
            const ref = { apiVersion: OVN_API, kind: "EgressIP", name: NS.egressIp };
            await lab.admin.delete(ref);
            await lab.admin.waitUntilGone(ref, 60_000);
        });

        test("egress firewall: Deny 0.0.0.0/0 but one outside address; that address answers, the other does not, another namespace reaches both", async () => {
            const [guarded] = pods.firewall;
            const other = pods.plain[0];
            // Both outside addresses answer the namespace before its firewall exists.
            const before = await phase("outside B before the firewall", () => seenFromOutside(guarded, outsideB));
            assert.equal(before, gatewayOf(guarded.node), `${guarded.name} reaches ${outsideB} before the firewall`);
            await lab.admin.create({
                apiVersion: OVN_API,
                kind: "EgressFirewall",
                metadata: { name: "default", namespace: NS.firewall },
                spec: {
                    egress: [
                        { type: "Allow", to: { cidrSelector: `${outsideA}/32` } },
                        { type: "Deny", to: { cidrSelector: "0.0.0.0/0" } },
                    ],
                },
            });
            await phase("EgressFirewall applied", () => awaitApplied("EgressFirewall", NS.firewall, FIREWALL_APPLIED));
            assert.equal(
                await seenFromOutside(guarded, outsideA),
                gatewayOf(guarded.node),
                `the allowed ${outsideA} answers ${guarded.name}`,
            );
            assert.equal(await seenFromOutside(guarded, outsideB), undefined, `the denied ${outsideB} does not answer ${guarded.name}`);
            assert.equal(await seenFromOutside(other, outsideA), gatewayOf(other.node), `${other.name} of ${NS.plain} reaches ${outsideA}`);
            assert.equal(await seenFromOutside(other, outsideB), gatewayOf(other.node), `${other.name} of ${NS.plain} reaches ${outsideB}`);
        });

        test("egress IP: the namespace's pods on every node reach the outside from it, through node2; other pods from their node's address", async () => {
            await lab.admin.create({
                apiVersion: OVN_API,
                kind: "EgressIP",
                metadata: { name: NS.egressIp },
                spec: { egressIPs: [egressIp], namespaceSelector: { matchLabels: { "kubernetes.io/metadata.name": NS.egressIp } } },
            });
            await awaitHolder("node2");
            assert.deepEqual(
                pods.egressIp.map((p) => p.node),
                lab.cluster.hosts.map((h) => h.name),
            );
            for (const pod of pods.egressIp) {
                // The holder's zone and the others' reroute policies are written after the status.
                const seen = await pollUntil(async () => ((await seenFromOutside(pod, outsideA, 1)) === egressIp ? egressIp : undefined), {
                    timeoutMs: 30_000,
                    intervalMs: 500,
                    what: `${pod.name} on ${pod.node} to reach ${outsideA} from ${egressIp}`,
                });
                assert.equal(seen, egressIp);
            }
            for (const pod of pods.plain)
                assert.equal(
                    await seenFromOutside(pod, outsideA),
                    gatewayOf(pod.node),
                    `${pod.name} (${NS.plain}) on ${pod.node} from its node's address`,
                );
            assert.equal(
                await outsideResolves(egressIp, pods.egressIp[0]),
                await breth0Mac("node2"),
                `the outside resolves ${egressIp} to node2's gateway`,
            );
        });

        test("egress IP failover: one up moves egressAssignable from node2 to node3 and the IP follows", async () => {
            assert.deepEqual(await egressIpHolders(), [`${egressIp}@node2`], "the previous test left the IP on node2");
            writeLabStack(lab, lab.offline.stackFile!, stackWithAssignable("node3"));
            const probe = pods.egressIp.find((p) => p.node === "node1")!;
            const started = Date.now();
            const up = apply(lab.offline);
            // Timed from the moment node2's label is gone, as the cluster manager sees the change.
            const labelGone = await pollUntil(
                async () =>
                    (await lab.admin.get({ apiVersion: "v1", kind: "Node", name: "node2" })).metadata.labels?.[EGRESS_ASSIGNABLE_LABEL] ===
                    undefined
                        ? Date.now()
                        : undefined,
                { timeoutMs: 300_000, intervalMs: 200, what: `node2's ${EGRESS_ASSIGNABLE_LABEL} label to go` },
            );
            await awaitHolder("node3");
            const statusMoved = Date.now();
            await pollUntil(async () => ((await seenFromOutside(probe, outsideA, 1)) === egressIp ? true : undefined), {
                timeoutMs: 60_000,
                intervalMs: 200,
                what: `${probe.name} to reach ${outsideA} from ${egressIp} again`,
            });
            const trafficBack = Date.now();
            const result = await up;
            console.log(
                `egress IP failover: node2's label gone ${seconds(labelGone - started)} into the up; then status on node3 after ${seconds(statusMoved - labelGone)}, ` +
                    `traffic from ${egressIp} again after ${seconds(trafficBack - labelGone)}; the up took ${seconds(Date.now() - started)}`,
            );
            assert.equal(result.ok, true, result.error);
            const nodes = await lab.admin.list("v1", "Node");
            assert.deepEqual(
                nodes.filter((n) => n.metadata.labels?.[EGRESS_ASSIGNABLE_LABEL] !== undefined).map((n) => n.metadata.name!),
                ["node3"],
            );
            for (const pod of pods.egressIp)
                assert.equal(await seenFromOutside(pod, outsideA), egressIp, `${pod.name} on ${pod.node} from ${egressIp} after the move`);
            assert.equal(
                await outsideResolves(egressIp, probe),
                await breth0Mac("node3"),
                `the outside resolves ${egressIp} to node3's gateway`,
            );
        });

        test("multicast: a sender's group traffic reaches a receiver on every other node in an enabled namespace, nothing in another", async () => {
            for (const [key, enabled] of [
                ["multicast", true],
                ["plain", false],
            ] as const) {
                const [sender, ...receivers] = pods[key];
                const round = await multicastRound(lab.cluster, podRef(sender), receivers.map(podRef), MULTICAST_GROUP, MULTICAST_PORT);
                const report = `${NS[key]}: ${sender.name} on ${sender.node} sent ${round.sent}; ${receivers.map((r, i) => `${r.node} got ${round.received[i]}`).join(", ")}`;
                console.log(report);
                assert.ok(round.sent > 0, report);
                assert.deepEqual(new Set(receivers.map((r) => r.node)).size, HOSTS - 1, "a receiver on every other node");
                if (enabled)
                    assert.ok(
                        round.received.every((n) => n > 0),
                        report,
                    );
                else
                    assert.deepEqual(
                        round.received,
                        receivers.map(() => 0),
                        report,
                    );
            }
        });

        test("egress QoS: traffic to the rule's destination leaves with its DSCP, other traffic without", async () => {
            await lab.admin.create({
                apiVersion: OVN_API,
                kind: "EgressQoS",
                metadata: { name: "default", namespace: NS.qos },
                spec: { egress: [{ dscp: DSCP, dstCIDR: `${outsideB}/32` }] },
            });
            await phase("EgressQoS applied", () => awaitApplied("EgressQoS", NS.qos, QOS_APPLIED));
            const [marked] = pods.qos;
            const unmarked = pods.plain[0];
            const cases = [
                { from: marked, to: outsideB, dscp: DSCP },
                { from: marked, to: outsideA, dscp: 0 },
                { from: unmarked, to: outsideB, dscp: 0 },
            ];
            for (const c of cases) {
                const seen = await captureOutside(lab.cluster, QOS_PORT, () => sendUdp(lab.cluster, podRef(c.from), c.to, QOS_PORT, 10));
                const what = `${c.from.namespace}/${c.from.name} → ${c.to}: ${seen.map((p) => `${p.src}>${p.dst} dscp ${p.dscp}`).join(", ") || "nothing seen"}`;
                // The first datagram to a new peer may be lost on the userspace datapath: most arrive, all as the rule says.
                assert.ok(seen.length >= 5, what);
                assert.deepEqual(
                    [...new Set(seen.map((p) => `${p.src}>${p.dst} dscp ${p.dscp}`))],
                    [`${gatewayOf(c.from.node)}>${c.to} dscp ${c.dscp}`],
                    what,
                );
            }
        });
    });
}
