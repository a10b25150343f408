// End to end in ovnkube mode with the centralized architecture in dual stack, on real parts only: 4
// Debian unstable hosts (OVN 26.03, OVS 4.0) on the lab's IPv4 and IPv6 underlay, the first three
// of them the cluster's centrals (Northbound and Southbound as raft clusters of 3), a Kubernetes
// v1.36 control plane with both service ranges and the upstream kubelet,
// and ovn-kubernetes' ovnkube-master and ovnkube-node from the program's DaemonSets, in local gateway
// mode (egress and NodePort traffic through each host's own routing and nftables). It proves that
// the program takes bare hosts to a cluster on ovn-kubernetes 1.2 whose central NB ovnkube built
// from the project's plan; that 1.2 → 1.3 is one up that preview describes, under probes between
// pods on two nodes (20 a second, both ways) that lose nothing, with the pods keeping their
// addresses; that on 1.3 a Deployment's pods get their planned addresses and reach each other, a
// Service at its ClusterIP and NodePort, and the outside; that in short, dual stack holds (ping and
// ping6, a RequireDualStack Service, SNAT per family); that the central NB has one writer per cell (read from a raft
// member's own log); that with the ovnkube pods recreated, a second up and a refresh change nothing; that
// with the NB leader killed under ovnkube, pods created afterwards still get addresses and ping;
// that a node leaves only once it is no Kubernetes Node, under traffic that loses nothing, with no
// row of it left in NB or SB; that a node joining the running cluster gets its planned subnet and
// id; and that destroy leaves every host as it was. Phases print their wall time.
import assert from "node:assert/strict";
import { reportFaultCell, secondsSince } from "../support/faultMatrix";
import * as fs from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { after, before, test } from "node:test";
import { NODE_ID_ANNOTATION } from "../../components/kube/objectNames";
import { releaseOf } from "../../components/config/releases";
import { TRANSIT_SWITCH } from "../../components/model/names";
import type { ClusterModel } from "../../components/model/types";
import { readStackFile } from "../../components/config/stackFile";
import { validateConfig } from "../../components/plan/validate";
import { buildClusterModel } from "../../components/model/clusterModel";
import { down, hostExec } from "../../lab/localcluster";
import { removeDemoWorkloads, startDemoDeployment, type KubePod } from "../../lab/localcluster/kubeWorkloads";
import { apply, destroy } from "../../lab/offline/api";
import { processesNamed, ovsOvnDaemons } from "./support/hostDaemons";
import { snapshotHost, type HostSnapshot } from "./support/hostSnapshot";
import { upgradeUnderProbes } from "../../lab/scenarios/ovnkubeUpgrade";
import { readNbLog, writerReport, type NbWriter } from "./support/nbTransactionLog";
import {
    assertUpAndRefreshChangeNothing,
    bringUpOvnkubeLab,
    writeLabStack,
    withoutHost,
    type OvnkubeLab,
} from "../../lab/scenarios/ovnkubeLab";
import {
    controlPlaneOf,
    plannedOvnkubePods,
    recreateOvnkubePods,
    waitNodesReady,
    waitOvnkubePodsRunning,
    ovnkubeImages,
} from "../../lab/scenarios/ovnkubePods";
import { phase } from "./support/phase";
import { assertRolloutLostNothing, changed, previewUpgradeTo13 } from "./support/upgradeProbes";
import { removeOvnkubeNode } from "../../lab/scenarios/ovnkubeNodeRemoval";
import { addOvnkubeNode } from "../../lab/scenarios/ovnkubeNodeAddition";
import { assertRaftOfEveryCentral, clusterOf, electedAmong, killDaemons, leaderOf, restartMember } from "./support/raftMembers";
import { assertNodeAsPlanned } from "./support/nodePlanProof";
import { assertAdditionLostNothing, assertRemovalRefusedThenDone } from "./support/nodeChurnProof";
import { assertPlannedAddresses, assertPodsPing, proveJoinedNode, proveWorkloads } from "./support/workloadProof";
import { assertOutsideEveryFamily, assertPingEveryFamily, assertServiceEveryFamily } from "./support/familyProof";

const ID = "e2ecen";
const HOSTS = 4;
const CENTRALS = 3;
const SPREAD = "cen-spread";
const SERVER = "cen-server";
const LATE = "cen-late";
/** The RequireDualStack Service of the dual-stack proof. */
const DUAL_STACK_SERVICE = "cen-dual";
/** The node that leaves the cluster (the last host: no central). */
const GOES = "node4";
/** The cluster's gateway mode, from the first up on (a change of it is refused). */
const GATEWAY_MODE = "local";
const STACK_13 = { ovnkube: { version: "1.3", architecture: "centralized", gatewayMode: GATEWAY_MODE }, centrals: 3 } as const;

let work: string;
let lab: OvnkubeLab;
let model: ClusterModel;
let pods: KubePod[] = [];
const bareHosts = new Map<string, HostSnapshot>();

const centrals = () => ({ cluster: lab.cluster, model });
/** The nodes whose ovnkube-node runs pods (every node with the node role). */
const podNodes = () => model.kube.nodes.map((n) => n.name);

function requireLab(): void {
    assert.ok(lab, "the bring-up test did not bring the cluster up: nothing to test");
}

/** ovn-nbctl against the central NB, from the first central (any member answers reads). */
async function nbctl(argv: string[]): Promise<string> {
    const r = await hostExec(lab.cluster, "node1", ["ovn-nbctl", "--no-leader-only", "--timeout=20", ...argv]);
    assert.equal(r.code, 0, `ovn-nbctl ${argv.join(" ")}: ${r.stderr}`);
    return r.stdout.trim();
}

/** The images the running ovnkube pods were made from. */
const runningImages = () => ovnkubeImages(lab.admin, model.kube);

before(async () => {
    await down(ID);
    work = fs.mkdtempSync(path.join(tmpdir(), "e2e-centralized-"));
});

after(async () => {
    lab?.admin.close();
    await down(ID);
    if (work) fs.rmSync(work, { recursive: true, force: true });
});

test("bring-up on 1.2 with three centrals: raft NB and SB of 3, ovnkube-master and every ovnkube-node running, the central NB as planned", async () => {
    const up = await phase("bring-up and first up (1.2, centralized)", () =>
        bringUpOvnkubeLab({ id: ID, hosts: HOSTS, os: "debian-sid", workDir: work, release: "1.2", ipFamily: "dual" }, async (l) => {
            writeLabStack(l, l.offline.stackFile!, {
                ovnkube: { version: "1.2", architecture: "centralized", gatewayMode: GATEWAY_MODE },
                centrals: CENTRALS,
            });
            l.model = buildClusterModel(validateConfig(readStackFile(l.offline.stackFile!)));
            assert.deepEqual(ovsOvnDaemons(l.cluster), [], "the hosts are bare");
            for (const h of l.cluster.hosts) bareHosts.set(h.name, await snapshotHost(l.cluster, h.name));
        }),
    );
    lab = up.lab;
    model = lab.model;
    assert.equal(up.first.ok, true, up.first.error);
    assert.equal(model.architecture, "centralized");
    assert.equal(model.kube.version, "1.2");
    assert.equal(model.kube.gatewayMode, GATEWAY_MODE);

    const running = await waitOvnkubePodsRunning(lab.admin, model.kube, 120_000);
    assert.deepEqual(
        running.map((p) => p.placement),
        plannedOvnkubePods(model.kube),
    );
    assert.ok(
        running.some((p) => p.placement.startsWith(`${controlPlaneOf(model.kube)}@`)),
        "ovnkube-master runs",
    );
    assert.deepEqual(await runningImages(), [releaseOf("1.2").image]);
    assert.deepEqual(
        await waitNodesReady(lab.admin, 60_000),
        lab.cluster.hosts.map((h) => h.name),
    );
    // One northd per central (one active, the others on standby), no zone databases anywhere else.
    assert.deepEqual(
        processesNamed(lab.cluster, ["ovn-northd"]),
        ["node1", "node2", "node3"].map((h) => `${h}: ovn-northd`),
    );

    await assertRaftOfEveryCentral(centrals());

    for (const node of model.kube.nodes) {
        const live = (await lab.admin.get({ apiVersion: "v1", kind: "Node", name: node.name })).metadata.annotations ?? {};
        assert.equal(live[NODE_ID_ANNOTATION], String(node.nodeId), `${node.name} keeps its planned node-id`);
        await assertNodeAsPlanned(nbctl, node, live);
    }
    assert.equal(
        await nbctl(["--bare", "--columns=name", "find", "Logical_Switch", `name=${TRANSIT_SWITCH}`]),
        "",
        "no transit switch in the centralized architecture",
    );
});

test("1.2 → 1.3 in one up: preview names what rolls, probes between pods on two nodes lose nothing, the pods keep their addresses", async () => {
    requireLab();
    const spread = await phase("workloads on 1.2", () =>
        startDemoDeployment(lab.admin, lab.cluster, { name: SPREAD, replicas: podNodes().length, command: ["sleep", "infinity"] }),
    );
    pods.push(...spread);
    await assertPodsPing(lab, spread);

    const { to13 } = await previewUpgradeTo13(lab, STACK_13, ["ovn-ovnkube-master", "ovn-ovnkube-node", "ovn-ovnkube-identity"]);
    assert.deepEqual(await runningImages(), [releaseOf("1.2").image], "preview changed nothing");

    const [a, b] = spread;
    const rollout = await phase("up 1.2 → 1.3", () => upgradeUnderProbes(lab, to13.kube, [a, b]));
    assertRolloutLostNothing(rollout, `${a.node} ↔ ${b.node}`);
    model = to13;
    assert.deepEqual(await runningImages(), [releaseOf("1.3").image]);

    const now = await lab.admin.list("v1", "Pod", { namespace: "default", labelSelector: `app=${SPREAD}` });
    assert.deepEqual(
        Object.fromEntries(now.map((p) => [p.metadata.name, (p.status as { podIP: string }).podIP])),
        Object.fromEntries(spread.map((p) => [p.name, p.ip])),
    );
    await assertPodsPing(lab, spread);
    assert.deepEqual(changed(await apply(lab.offline)), [], "a second up after the upgrade changes nothing");
});

test("on 1.3 in local gateway mode: new pods get their planned addresses, reach each other, a ClusterIP and a NodePort Service and the outside through SNAT", async () => {
    requireLab();
    await phase("workloads removed and started on 1.3", async () => {
        await removeDemoWorkloads(lab.admin, lab.cluster, [], [], [{ name: SPREAD }]);
        pods = await proveWorkloads(lab, model, { spread: SPREAD, server: SERVER }, podNodes());
    });
});

test("dual stack, in short: every pod an address of each family in its node's planned subnets, ping and ping6 across every pair and from every host, a RequireDualStack Service at both ClusterIPs, the outside over both families SNATed to the node's address of that family", async () => {
    requireLab();
    const server = pods.at(-1)!;
    const client = pods.find((p) => p.node !== server.node)!;
    assert.ok(
        pods.every((p) => p.ips.length === 2),
        "one address per family (each in its planned subnet, as the workload test asserted)",
    );
    await assertPingEveryFamily(lab, pods);
    await assertServiceEveryFamily(lab, DUAL_STACK_SERVICE, { app: SERVER }, "RequireDualStack", [client, server]);
    await assertOutsideEveryFamily(lab, pods);
});

test("one writer per cell in the central NB; with the ovnkube pods recreated, a second up and a refresh change nothing", async () => {
    requireLab();
    await phase("ovnkube pods recreated, up and refresh", async () => {
        await recreateOvnkubePods(lab.admin, model.kube, () => true, 120_000);
        await assertUpAndRefreshChangeNothing(lab.offline);
    });

    // Any member's log holds every committed transaction: the first central's, which created the cluster.
    const log = readNbLog(lab.cluster, "node1");
    const report = writerReport(log.transactions);
    console.log(
        `central NB log (${log.schema.name} ${log.schema.version}, raft): ${Object.entries(report.transactions)
            .map(([w, n]) => `${w} ${n}`)
            .join(", ")} transactions`,
    );
    assert.deepEqual(report.others, [], "transactions of writers other than the project, ovn-northd and ovnkube");
    assert.deepEqual(report.shared, [], "cells written by more than one writer");
    assert.ok(report.transactions.ovnkube > 0 && report.transactions["ovn-northd"] > 0);
    const cellsOf = (writer: NbWriter) =>
        Object.entries(report.byColumn)
            .filter(([, w]) => w.includes(writer))
            .map(([c]) => c);
    // The project's central script sets only the database's connections; the topology is ovnkube's.
    for (const cell of cellsOf("project")) assert.match(cell, /^(NB_Global|Connection|SSL)\./, `the project wrote ${cell}`);
});

test("the NB leader killed while ovnkube runs: pods created afterwards get addresses and ping; the member comes back", async (t) => {
    requireLab();
    const victim = await leaderOf(centrals(), "nb");
    await killDaemons(centrals(), victim, ["ovnnb_db.pid"]);
    const killed = Date.now();
    const survivors = ["node1", "node2", "node3"].filter((h) => h !== victim);
    const successor = await electedAmong(centrals(), "nb", survivors);
    console.log(`NB leader ${victim} killed; ${successor} leads`);

    const late = await phase("pods after the leader change", () =>
        startDemoDeployment(lab.admin, lab.cluster, { name: LATE, replicas: podNodes().length, command: ["sleep", "infinity"] }),
    );
    await assertPlannedAddresses(lab, model, late);
    await assertPodsPing(lab, [...late, ...pods]);
    reportFaultCell(t, {
        fault: "the NB leader's ovsdb-server killed (3 centrals, raft)",
        point: "while ovnkube writes, pods created after",
        mode: "ovnkube",
        outcome: `ovnkube followed ${successor}; the new pods got their planned addresses and ping`,
        convergeSeconds: secondsSince(killed),
    });

    await restartMember(centrals(), victim);
    const views = await clusterOf(centrals(), "nb");
    assert.deepEqual(
        views.map((v) => v.status?.servers.length),
        [3, 3, 3],
    );
    assert.deepEqual(changed(await apply(lab.offline)), [], "the member back, an up changes nothing");
    await removeDemoWorkloads(
        lab.admin,
        lab.cluster,
        [],
        [{ name: SERVER }, { name: DUAL_STACK_SERVICE }],
        [{ name: SPREAD }, { name: SERVER }, { name: LATE }],
    );
    pods = [];
});

test("node4 leaves under traffic: refused while it is a Kubernetes Node; once drained and deleted, one up removes it, no row of it is left in NB or SB, its host is as before", async () => {
    requireLab();
    const removal = await phase("node4 removed", () =>
        removeOvnkubeNode(lab, model, GOES, ["node2", "node3"], () => {
            writeLabStack(withoutHost(lab, GOES), lab.offline.stackFile!, STACK_13);
        }),
    );
    assert.match(removal.refused.error ?? "", new RegExp(`removing host ${GOES} stopped before deleting anything: 1 blocker`));
    assertRemovalRefusedThenDone(removal, GOES, `Logical_Switch ${GOES}`);
    assert.deepEqual(await snapshotHost(lab.cluster, GOES), bareHosts.get(GOES), `${GOES} is as it was before the first up`);
    model = buildClusterModel(validateConfig(readStackFile(lab.offline.stackFile!)));
    assert.deepEqual(changed(await apply(lab.offline)), [], "a further up changes nothing");
});

test("node4 joins again while the cluster runs: the control plane restarts for the plan, the node gets its planned subnet and id, its pods their addresses; untouched pods lose nothing, and the other nodes' ovnkube-node keep running", async () => {
    requireLab();
    writeLabStack(lab, lab.offline.stackFile!, STACK_13);
    const to = buildClusterModel(validateConfig(readStackFile(lab.offline.stackFile!)));
    const added = await phase("node4 added", () =>
        addOvnkubeNode(lab, to.kube, GOES, ["node2", "node3"], () => writeLabStack(lab, lab.offline.stackFile!, STACK_13)),
    );
    model = to;
    assertAdditionLostNothing(added);
    const plan = model.kube.nodes.find((n) => n.name === GOES)!;
    assert.equal(added.annotations[NODE_ID_ANNOTATION], String(plan.nodeId), `${GOES} has its planned node-id`);
    await assertNodeAsPlanned(nbctl, plan, added.annotations);

    await proveJoinedNode(lab, model, [GOES, "node2"]);
    assert.deepEqual(changed(await apply(lab.offline)), [], "a further up changes nothing");
});

test("destroy leaves every host as it was before the first up", async () => {
    requireLab();
    const r = await phase("destroy", () => destroy(lab.offline));
    assert.equal(r.ok, true, r.error);
    assert.deepEqual(processesNamed(lab.cluster, ["ovnkube", "ovn-northd", "ovn-controller"]), []);
    // Open vSwitch keeps running with its database (it may carry the host's own traffic); the central's NB and SB servers are gone.
    assert.deepEqual(
        processesNamed(lab.cluster, ["ovsdb-server"]),
        lab.cluster.hosts.map((h) => `${h.name}: ovsdb-server`),
    );
    for (const host of lab.cluster.hosts) assert.deepEqual(await snapshotHost(lab.cluster, host.name), bareHosts.get(host.name), host.name);
});
