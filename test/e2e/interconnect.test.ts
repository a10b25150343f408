// End to end in ovnkube mode with ovn-kubernetes 1.3 in its interconnect architecture, on real
// parts only: 3 Debian unstable hosts (OVN 26.03, OVS 4.0), a Kubernetes v1.36 control plane, the
// upstream kubelet v1.36.2 with containerd on every host running ovnkube v1.3.0 from the release's
// image under the reference the manifests name, in shared gateway mode (the default), and the real
// program applied by the offline engine.
// It proves that the program takes bare hosts to a working cluster of one zone per node whose
// topology ovnkube realised from the project's plan; that a Deployment's pods, placed by the
// scheduler, get their node's planned addresses through ovnkube's CNI path and reach each other, a
// Service at its ClusterIP and NodePort, and the outside (SNAT to their node's address); that every zone's Northbound
// has one writer per cell (read from each NB's own transaction log); that a second up, a refresh
// and restarted ovnkube pods change nothing; that a hand-edited node-subnets annotation is
// reported by refresh naming the node; that every node's ovnkube has its own certificate and the
// identity webhook refuses one node's change to another's annotations; that ovnkube was never
// refused a call; that a node leaves only once it is no Kubernetes Node, under traffic that loses
// nothing, with no row of it left in the other zones, and joins again with its planned subnet, id
// and transit address; that destroy leaves
// every host as it was; and that Debian 13 (OVN 25.03) is refused before anything is touched.
// Phases print their wall time.
import assert from "node:assert/strict";
import * as fs from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { after, before, test } from "node:test";
import { NODE_ID_ANNOTATION, NODE_SUBNETS_ANNOTATION, NODE_TRANSIT_ANNOTATION, ZONE_LABEL } from "../../components/kube/objectNames";
import { parseNetwork, subnetAt } from "../../components/values";
import { gatewayRouter, routerToJoin, routerToTransit, TRANSIT_SWITCH } from "../../components/model/names";
import type { ClusterModel } from "../../components/model/types";
import { OVNKUBE_ITP_RULE } from "../../components/hosts/scripts/ovnkubeNode";
import { down, hostExec } from "../../lab/localcluster";
import { enterableHost } from "../../lab/localcluster/exec";
import { inHost } from "../../lab/localcluster/hostfs";
import { removeDemoWorkloads, type KubePod } from "../../lab/localcluster/kubeWorkloads";
import { proveJoinedNode, proveWorkloads } from "./support/workloadProof";
import { X509Certificate } from "node:crypto";
import { buildKubeconfig, KubeClient, pollUntil } from "../../lab/kubeclient";
import { IDENTITY, OVN_NODE_USER_PREFIX, OVN_NODES_GROUP } from "../../components/kube/identity";
import { apply, destroy, preview, refresh, type OperationResult } from "../../lab/offline/api";
import { ovsOvnDaemons, processesNamed } from "./support/hostDaemons";
import { snapshotHost, type HostSnapshot } from "./support/hostSnapshot";
import { extendsLog, readNbLog, writerReport, type NbLog, type NbWriter } from "./support/nbTransactionLog";
import { assertExploreCommandsWork } from "./support/exploreCommands";
import { phase } from "./support/phase";
import {
    assertUpAndRefreshChangeNothing,
    bringUpOvnkubeLab,
    startOvnkubeLab,
    writeLabStack,
    withoutHost,
    type OvnkubeLab,
} from "../../lab/scenarios/ovnkubeLab";
import { removeOvnkubeNode } from "../../lab/scenarios/ovnkubeNodeRemoval";
import { addOvnkubeNode } from "../../lab/scenarios/ovnkubeNodeAddition";
import {
    controlPlaneOf,
    plannedOvnkubePods,
    recreateOvnkubePods,
    waitNodesReady,
    waitOvnkubePodsRunning,
} from "../../lab/scenarios/ovnkubePods";

const ID = "e2eic";
const OLD_ID = "e2eold";
const HOSTS = 3;
/** The program's resource names for node2 (component `ovn`): its Node plan and its zone's expectation. */
const NODE2_PLAN = "ovn-ovnkube-node2-plan";
const NODE2_EXPECTATION = "ovn-expect-zone-node2";
const SERVER = "e2e-server";
const SPREAD = "e2e-spread";

let work: string;
let lab: OvnkubeLab;
let model: ClusterModel;
let pods: KubePod[] = [];
/** Every host as it was before the first up. */
const bareHosts = new Map<string, HostSnapshot>();
/** Each zone's NB transactions at each phase boundary, to count who wrote what in each phase. */
const marks: Array<{ phase: string; logs: Map<string, NbLog> }> = [];

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

const zones = () => model.hosts.filter((h) => h.zone).map((h) => h.name);
/** Reads every zone's NB log at the end of a phase and prints who committed the phase's transactions. */
function markNb(name: string): Map<string, NbLog> {
    const previous = marks.at(-1);
    const logs = new Map(zones().map((zone) => [zone, readNbLog(lab.cluster, zone)]));
    for (const [zone, log] of logs) {
        const before = previous?.logs.get(zone);
        // Attribution needs the whole history: a compacted (rewritten) file would lose it.
        if (before) assert.ok(extendsLog(before, log), `${zone}'s NB log was rewritten between "${previous!.phase}" and "${name}"`);
        const counts = writerReport(log.transactions.slice(before?.transactions.length ?? 0)).transactions;
        console.log(
            `${zone} NB transactions in "${name}": ${Object.entries(counts)
                .map(([writer, n]) => `${writer} ${n}`)
                .join(", ")}`,
        );
    }
    marks.push({ phase: name, logs });
    return logs;
}

/** ovn-nbctl against one zone's NB, on its host. */
async function nbctl(zone: string, argv: string[]): Promise<string> {
    const r = await hostExec(lab.cluster, zone, ["ovn-nbctl", "--timeout=10", ...argv]);
    assert.equal(r.code, 0, `${zone}: ovn-nbctl ${argv.join(" ")}: ${r.stderr}`);
    return r.stdout.trim();
}
/** A column's value: ovn-nbctl prints strings quoted and sets as [..], which parse as JSON for addresses. */
async function nbGet(zone: string, table: string, record: string, column: string): Promise<unknown> {
    const text = await nbctl(zone, ["--if-exists", "get", table, record, column]);
    return text === "" ? undefined : JSON.parse(text);
}

/** Later tests work on the cluster the first one brought up. */
function requireLab(): void {
    assert.ok(lab, "the bring-up test did not bring the cluster up: nothing to test");
}

const changed = (r: OperationResult) =>
    r.ops
        .filter((o) => o.op !== "same")
        .map((o) => `${o.op} ${o.name}`)
        .sort();
const drift = (r: OperationResult) => r.drift.map((d) => `${d.name} [${d.keys.join(", ")}]`).sort();
const planOf = (node: string) => model.kube.nodes.find((n) => n.name === node)!;

before(async () => {
    await down(ID);
    await down(OLD_ID);
    work = fs.mkdtempSync(path.join(tmpdir(), "e2e-interconnect-"));
});

after(async () => {
    lab?.admin.close();
    await down(ID);
    await down(OLD_ID);
    if (work) fs.rmSync(work, { recursive: true, force: true });
});

test("bring-up from bare hosts to up: a zone per node, ovnkube 1.3 from the program's DaemonSets realising the plan in every zone", async () => {
    let bare: string[] = ["not looked at"];
    const up = await phase("bring-up and first up", () =>
        bringUpOvnkubeLab({ id: ID, hosts: HOSTS, os: "debian-sid", workDir: path.join(work, "main") }, async (l) => {
            bare = ovsOvnDaemons(l.cluster);
            for (const h of l.cluster.hosts) bareHosts.set(h.name, await snapshotHost(l.cluster, h.name));
        }),
    );
    lab = up.lab;
    model = lab.model;
    console.log(
        `bring-up (hosts, control plane, kubelets) ${seconds(up.timings.bringUpMs)}; first up ${seconds(up.timings.applyMs)}, ${up.timings.resources} resources`,
    );
    assert.deepEqual(bare, [], "the hosts were not bare before the first up");
    assert.equal(up.first.ok, true, up.first.error);
    assert.equal(model.architecture, "interconnect");
    assert.equal(model.kube.gatewayMode, "shared");
    assert.deepEqual(
        zones(),
        lab.cluster.hosts.map((h) => h.name),
    );

    const running = await waitOvnkubePodsRunning(lab.admin, model.kube, 120_000);
    assert.deepEqual(
        running.map((p) => p.placement),
        plannedOvnkubePods(model.kube),
    );
    assert.ok(running.some((p) => p.placement.startsWith(`${controlPlaneOf(model.kube)}@`)));
    // Their containers share the host's network namespace (hostNetwork): one ovnkube per pod
    // (ovnkube-identity is its own binary); each zone its own NB, SB and northd.
    const ovnkubePods = running.filter((p) => !p.placement.startsWith(`${IDENTITY}@`));
    assert.deepEqual(processesNamed(lab.cluster, ["ovnkube"]), ovnkubePods.map((p) => `${p.placement.split("@")[1]}: ovnkube`).sort());
    assert.deepEqual(
        processesNamed(lab.cluster, ["ovn-northd"]),
        zones().map((z) => `${z}: ovn-northd`),
    );
    assert.deepEqual(
        await waitNodesReady(lab.admin, 60_000),
        lab.cluster.hosts.map((h) => h.name),
    );

    // The stack's output and the model are the same plan; the Nodes and every zone's rows carry it.
    assert.deepEqual(up.first.outputs.nodeSubnets, Object.fromEntries(model.kube.nodes.map((n) => [n.name, n.subnets[0]])));
    for (const node of model.kube.nodes) {
        const live = await lab.admin.get({ apiVersion: "v1", kind: "Node", name: node.name });
        assert.equal(live.metadata.labels?.[ZONE_LABEL], node.name);
        assert.equal(live.metadata.annotations?.[NODE_ID_ANNOTATION], String(node.nodeId), `${node.name} keeps its planned node-id`);
        assert.deepEqual(JSON.parse(live.metadata.annotations?.[NODE_TRANSIT_ANNOTATION] ?? "{}"), { ipv4: node.transit![0].cidr });
        const zone = node.name;
        assert.equal((await nbctl(zone, ["get", "NB_Global", ".", "name"])).replace(/^"(.*)"$/, "$1"), zone);
        assert.equal(await nbGet(zone, "Logical_Switch", node.name, "other_config:subnet"), node.subnets[0], `switch ${node.name}`);
        assert.deepEqual(
            await nbGet(zone, "Logical_Router_Port", routerToJoin(gatewayRouter(node.name)), "networks"),
            [node.gatewayRouterJoin[0].cidr],
            `${gatewayRouter(node.name)}`,
        );
        assert.deepEqual(await nbGet(zone, "Logical_Router_Port", routerToTransit(node.name), "networks"), [node.transit![0].cidr]);
        // Every other zone is a remote port on this zone's transit switch.
        const ports = (await nbctl(zone, ["--bare", "--columns=name", "find", "Logical_Switch_Port", "type=remote"]))
            .split(/\s+/)
            .filter(Boolean)
            .sort();
        assert.deepEqual(
            ports,
            model.kube.nodes.filter((n) => n.name !== zone).map((n) => `tstor-${n.name}`),
        );
        assert.equal(await nbctl(zone, ["--bare", "--columns=name", "find", "Logical_Switch", `name=${TRANSIT_SWITCH}`]), TRANSIT_SWITCH);
    }
    // What the demo prints to explore: each zone's databases, inside its node.
    assert.equal((await assertExploreCommandsWork(ID, model)).length, 2 * HOSTS);
    markNb("bring-up, ovnkube settled");
});

test("a Deployment's pods, placed by the scheduler, get their node's planned addresses, ping each other, reach a Service at its ClusterIP and, from outside, its NodePort, and the outside through SNAT (shared gateway mode)", async () => {
    requireLab();
    await phase("workloads", async () => {
        pods.push(
            ...(await proveWorkloads(
                lab,
                model,
                { spread: SPREAD, server: SERVER },
                lab.cluster.hosts.map((h) => h.name),
            )),
        );
    });
    markNb("workloads");
});

test("one writer per Northbound cell in every zone; a second up and a refresh change nothing, also after the cluster manager and the controllers are restarted", async () => {
    requireLab();
    const upAndRefreshChangeNothing = () => assertUpAndRefreshChangeNothing(lab.offline);
    await phase("second up and refresh", upAndRefreshChangeNothing);
    markNb("second up and refresh");

    await phase("ovnkube pods recreated, up and refresh", async () => {
        await recreateOvnkubePods(lab.admin, model.kube, () => true, 120_000);
        await upAndRefreshChangeNothing();
    });
    markNb("ovnkube restarted, up and refresh");

    await phase("workloads removed", () =>
        removeDemoWorkloads(lab.admin, lab.cluster, [], [{ name: SERVER }], [{ name: SPREAD }, { name: SERVER }]),
    );
    pods = [];
    const all = markNb("workloads removed");

    // ovn-northd reports state back into NB, in the columns OVN gives it (ovn-nb(5)): a port's
    // `up` once its chassis claimed it, a gateway port's hosting chassis, and its own NB_Global
    // options. These are northd's alone (no cell is shared, asserted below); listed so any other write fails.
    const NORTHD_CELLS = [
        "Logical_Switch_Port.up",
        "Logical_Router_Port.status:hosting-chassis",
        "NB_Global.options:mac_prefix",
        "NB_Global.options:max_tunid",
        "NB_Global.options:svc_monitor_mac",
        "NB_Global.options:svc_monitor_mac_dst",
        "NB_Global.options:northd_internal_version",
        "NB_Global.nb_cfg_timestamp",
        "NB_Global.sb_cfg",
        "NB_Global.sb_cfg_timestamp",
        "NB_Global.hv_cfg",
        "NB_Global.hv_cfg_timestamp",
    ];
    // The project writes what the zone's database host sets up, as upstream's local-nb-ovsdb does: the zone's name.
    const PROJECT_CELLS = ["NB_Global.(row)", "NB_Global.name", "NB_Global.options:name", "NB_Global.options:northd-backoff-interval-ms"];
    for (const [zone, log] of all) {
        const report = writerReport(log.transactions);
        console.log(
            `${zone} NB log (${log.schema.name} ${log.schema.version}) so far: ${Object.entries(report.transactions)
                .map(([writer, n]) => `${writer} ${n}`)
                .join(", ")} transactions`,
        );
        assert.deepEqual(report.others, [], `${zone}: transactions of writers other than the project, ovn-northd and ovnkube`);
        assert.deepEqual(report.shared, [], `${zone}: cells written by more than one writer`);
        assert.ok(report.transactions.project > 0 && report.transactions.ovnkube > 0, zone);
        const cellsOf = (writer: NbWriter) =>
            Object.entries(report.byColumn)
                .filter(([, w]) => w.includes(writer))
                .map(([c]) => c);
        for (const cell of cellsOf("project")) assert.ok(PROJECT_CELLS.includes(cell), `${zone}: the project wrote ${cell}`);
        for (const cell of cellsOf("ovn-northd")) assert.ok(NORTHD_CELLS.includes(cell), `${zone}: ovn-northd wrote ${cell}`);
    }
});

/** A node subnet of the cluster network that no node has: where a hand-edited annotation moves node2. */
function freeNodeSubnet(): string {
    const cluster = parseNetwork(model.clusterSubnets[0]);
    const prefix = parseNetwork(planOf("node2").subnets[0]).prefix;
    const used = new Set(model.kube.nodes.map((n) => n.subnets[0]));
    for (let i = 0; ; i++) {
        const candidate = subnetAt(cluster, prefix, i).text;
        if (!used.has(candidate)) return candidate;
    }
}

test("a hand-edited node-subnets annotation is reported by refresh, naming the node, and undone by up", async () => {
    requireLab();
    await phase("annotation edited by hand, refresh, up", async () => {
        const moved = freeNodeSubnet();
        await lab.admin.patch(
            { apiVersion: "v1", kind: "Node", name: "node2" },
            { metadata: { annotations: { [NODE_SUBNETS_ANNOTATION]: JSON.stringify({ default: [moved] }) } } },
            "merge",
            { fieldManager: "e2e-by-hand" },
        );
        const seen = await refresh({ ...lab.offline, dryRun: true });
        assert.equal(seen.ok, true, seen.error);
        // The node's plan names it; its zone's rows may follow the annotation too.
        const drifted = drift(seen);
        assert.ok(drifted.includes(`${NODE2_PLAN} [metadata]`), `no drift of ${NODE2_PLAN} in ${JSON.stringify(drifted)}`);
        assert.deepEqual(
            drifted.filter((d) => d !== `${NODE2_PLAN} [metadata]` && d !== `${NODE2_EXPECTATION} [rows]`),
            [],
        );

        // `pulumi up --refresh`: the refresh takes in the drift, the update re-applies the plan.
        const fixed = await apply({ ...lab.offline, refresh: true });
        assert.equal(fixed.ok, true, fixed.error);
        assert.ok(changed(fixed).includes(`update ${NODE2_PLAN}`), JSON.stringify(changed(fixed)));
        const annotations = (await lab.admin.get({ apiVersion: "v1", kind: "Node", name: "node2" })).metadata.annotations ?? {};
        assert.deepEqual(JSON.parse(annotations[NODE_SUBNETS_ANNOTATION]), { default: [planOf("node2").subnets[0]] });
        await pollUntil(async () => (drift(await refresh({ ...lab.offline, dryRun: true })).length === 0 ? true : undefined), {
            timeoutMs: 60_000,
            intervalMs: 1000,
            what: "node2's zone to follow its restored plan",
        });
    });
    markNb("hand-made change undone");
});

/** A node's own ovnkube certificate (system:ovn-node:<node>), read from its host, as a client of the API server. */
async function nodeIdentityClient(node: string): Promise<KubeClient> {
    const pem = await hostExec(lab.cluster, node, ["cat", "/var/run/ovn-kubernetes/certs/ovnkube-client-current.pem"]);
    assert.equal(pem.code, 0, `${node}: no node certificate: ${pem.stderr}`);
    const blocks = pem.stdout.match(/-----BEGIN [^-]+-----[\s\S]+?-----END [^-]+-----\n?/g) ?? [];
    const certPem = blocks.find((b) => b.includes("CERTIFICATE"))!;
    const keyPem = blocks.find((b) => b.includes("PRIVATE KEY"))!;
    assert.equal(new X509Certificate(certPem).subject, `O=${OVN_NODES_GROUP}\nCN=${OVN_NODE_USER_PREFIX}${node}`);
    const { apiServerUrl, caPem } = lab.kubernetes.controlPlane;
    return KubeClient.fromKubeconfig(
        buildKubeconfig({ server: apiServerUrl, caPem, user: `${OVN_NODE_USER_PREFIX}${node}`, credentials: { certPem, keyPem } }),
    );
}

test("node identities: every node's ovnkube has its own approved certificate, and the webhook refuses one node's change to another Node's annotations", async () => {
    requireLab();
    const csrs = await lab.admin.list("certificates.k8s.io/v1", "CertificateSigningRequest");
    const approved = csrs
        .filter((c) => ((c.status as { conditions?: Array<{ type: string }> }).conditions ?? []).some((x) => x.type === "Approved"))
        .map((c) => (c.spec as { username: string }).username)
        .sort();
    // ovnkube's certificates last 10 minutes (--cert-duration, config.go:156 at v1.3.0) and are renewed
    // at 70-90% of that with the node's own certificate: a renewal may already be there.
    const nodes = lab.cluster.hosts.map((h) => h.name);
    assert.deepEqual(
        approved.filter((u) => u.startsWith("system:node:")),
        nodes.map((n) => `system:node:${n}`),
        "each node asked once with its kubelet's credentials, and ovnkube-identity approved it",
    );
    for (const u of approved.filter((x) => !x.startsWith("system:node:")))
        assert.ok(
            nodes.some((n) => u === `${OVN_NODE_USER_PREFIX}${n}`),
            `${u}: only a node's own ovnkube identity renews its certificate`,
        );

    const node2 = await nodeIdentityClient("node2");
    try {
        const annotation = "k8s.ovn.org/host-cidrs";
        const own = (await lab.admin.get({ apiVersion: "v1", kind: "Node", name: "node2" })).metadata.annotations![annotation];
        // Its own Node: allowed (the same value written again).
        await node2.patch(
            { apiVersion: "v1", kind: "Node", name: "node2" },
            { metadata: { annotations: { [annotation]: own } } },
            "merge",
            { subresource: "status" },
        );
        // Another Node: refused by the webhook, which names both nodes.
        const other = node2.patch(
            { apiVersion: "v1", kind: "Node", name: "node1" },
            { metadata: { annotations: { [annotation]: own } } },
            "merge",
            { subresource: "status" },
        );
        await assert.rejects(other, (e: Error) => {
            assert.match(e.message, /admission webhook "ovn-kubernetes-admission-webhook-node\.k8s\.io" denied the request/);
            assert.match(e.message, /ovnkube-node on node: "node2" is not allowed to modify nodes "node1" annotations/);
            return true;
        });
        const after = (await lab.admin.get({ apiVersion: "v1", kind: "Node", name: "node1" })).metadata.annotations![annotation];
        assert.notEqual(after, own, "node1's annotation is its own, untouched");
    } finally {
        node2.close();
    }
});

test("ovnkube was refused no API call: its logs on every host hold no forbidden request", async () => {
    requireLab();
    for (const host of lab.cluster.hosts) {
        const dir = inHost(enterableHost(lab.cluster, host.name).holderPid, "/var/log/ovn-kubernetes");
        const logs = fs.readdirSync(dir).filter((f) => f.endsWith(".log") && f.startsWith("ovnkube"));
        assert.ok(logs.length > 0, `${host.name}: no ovnkube log in ${dir}`);
        for (const log of logs) {
            const forbidden = fs
                .readFileSync(path.join(dir, log), "utf8")
                .split("\n")
                .filter((l) => /forbidden/i.test(l));
            assert.deepEqual(forbidden.slice(0, 3), [], `${host.name} ${log}`);
        }
    }
});

test("node3 leaves under traffic: refused while it is a Kubernetes Node; once drained and deleted, one up removes its zone, no row of it is left in the other zones' NB or SB, its host is as before", async () => {
    requireLab();
    const goes = "node3";
    const removal = await phase(`${goes} removed`, () =>
        removeOvnkubeNode(lab, model, goes, ["node1", "node2"], () => {
            writeLabStack(withoutHost(lab, goes), lab.offline.stackFile!);
        }),
    );
    assert.equal(removal.refused.ok, false);
    assert.match(
        removal.refused.error ?? "",
        new RegExp(
            `node ${goes}: still a Kubernetes Node \\(ovnkube keeps its Logical_Switch_Port tstor-${goes} in the Northbound on .*kubectl delete node ${goes}`,
        ),
    );
    assert.deepEqual(
        removal.refused.ops.filter((o) => o.op !== "same" && !o.error),
        [],
        "the refused preview plans nothing",
    );

    assert.equal(removal.done.ok, true, removal.done.error);
    console.log(
        `node removal up: ${changed(removal.done).join(", ")}; probes ${removal.traffic.map((t) => `${t.lost}/${t.sent} lost`).join(", ")}`,
    );
    assert.deepEqual(
        removal.traffic.map((t) => t.lost),
        [0, 0],
        "pods on the untouched nodes lost no probe",
    );
    assert.deepEqual(removal.left, [], "nothing of the node is left in the other zones' NB or SB");
    assert.deepEqual(processesNamed(lab.cluster, ["ovn-northd"]), ["node1: ovn-northd", "node2: ovn-northd"], "the node's zone stopped");
    assert.deepEqual(await snapshotHost(lab.cluster, goes), bareHosts.get(goes), `${goes} is as it was before the first up`);
    assert.deepEqual(changed(await apply(lab.offline)), [], "a further up changes nothing");
});

test("node3 joins again while the cluster runs: the cluster manager restarts for the plan, the node gets its planned subnet, id and transit address, its own zone, its pods their addresses; untouched pods lose nothing, and the other nodes' ovnkube-node keep running", async () => {
    requireLab();
    const goes = "node3";
    writeLabStack(lab, lab.offline.stackFile!);
    const to = lab.model;
    const added = await phase(`${goes} added`, () =>
        addOvnkubeNode(lab, to.kube, goes, ["node1", "node2"], () => writeLabStack(lab, lab.offline.stackFile!)),
    );
    assert.equal(added.done.ok, true, added.done.error);
    const plan = planOf(goes);
    console.log(
        `node add up ${added.upSeconds.toFixed(1)} s: ${changed(added.done).join(", ")}; the cluster manager first gave ${JSON.stringify(added.assigned)}; probes ${added.traffic.map((t) => `${t.lost}/${t.sent} lost`).join(", ")}`,
    );
    assert.deepEqual(
        added.traffic.map((t) => t.lost),
        [0, 0],
        "pods on the untouched nodes lost no probe",
    );
    // Of what ran, only the cluster manager's DaemonSet changed (for the plan): the nodes' ovnkube-node
    // select their nodes by the plans' label, so the untouched nodes' pods kept running.
    assert.deepEqual(
        changed(added.done).filter((c) => !c.startsWith("create ")),
        ["update ovn-change-guard", "update ovn-destroy-guard", "update ovn-ovnkube-control-plane"],
    );
    assert.deepEqual(added.nodePodsReplaced, [], "the untouched nodes' ovnkube-node pods were not restarted");
    assert.equal(added.annotations[NODE_ID_ANNOTATION], String(plan.nodeId), `${goes} has its planned node-id`);
    assert.deepEqual(JSON.parse(added.annotations[NODE_SUBNETS_ANNOTATION]), { default: [plan.subnets[0]] });
    assert.deepEqual(JSON.parse(added.annotations[NODE_TRANSIT_ANNOTATION]), { ipv4: plan.transit![0].cidr });
    // Its zone holds its own rows; every other zone sees it at its planned transit address.
    assert.equal(await nbGet(goes, "Logical_Switch", goes, "other_config:subnet"), plan.subnets[0]);
    for (const zone of ["node1", "node2"])
        assert.deepEqual(
            await nbGet(zone, "Logical_Switch_Port", `tstor-${goes}`, "addresses"),
            [`${plan.transit![0].mac} ${plan.transit![0].cidr}`],
            zone,
        );

    await proveJoinedNode(lab, model, ["node1", goes]);
    assert.deepEqual(changed(await apply(lab.offline)), [], "a further up changes nothing");
});

/** ovnkube-node's routing rules on a host (both families), as `ip rule` prints them. */
async function ovnkubeRules(host: string): Promise<string[]> {
    const { priority, mark, table } = OVNKUBE_ITP_RULE;
    const r = await hostExec(lab.cluster, host, ["sh", "-c", "ip -N -4 rule show; ip -N -6 rule show"]);
    assert.equal(r.code, 0, r.stderr);
    return r.stdout
        .split("\n")
        .map((l) => l.replace(/\s+/g, " ").trim())
        .filter((l) => l === `${priority}: from all fwmark ${mark} lookup ${table}`);
}

test("destroy leaves every host as it was before the first up: bridges, ports, addresses, routes and routing rules, sysctls, nftables, iptables rules, OVN processes, files", async () => {
    requireLab();
    // ovnkube-node added its rule for ITP=local services on every host (IPv4 only: the cluster is single-stack).
    for (const host of lab.cluster.hosts) assert.equal((await ovnkubeRules(host.name)).length, 1, `${host.name}: ovnkube-node's ip rule`);
    const r = await phase("destroy", () => destroy(lab.offline));
    assert.equal(r.ok, true, r.error);
    assert.deepEqual(processesNamed(lab.cluster, ["ovnkube", "ovn-northd", "ovn-controller"]), []);
    for (const host of lab.cluster.hosts) {
        assert.deepEqual(await ovnkubeRules(host.name), [], `${host.name}: ovnkube-node's ip rule left`);
        assert.deepEqual(await snapshotHost(lab.cluster, host.name), bareHosts.get(host.name), host.name);
    }
});

test("ovn-kubernetes 1.3 on Debian 13 (OVN 25.03) is refused at preview, before anything changes", async () => {
    // The main cluster has proven what it can; its processes would only slow this one down.
    lab?.admin.close();
    await down(ID);
    const oldWork = path.join(work, "old");
    const old = await phase("Debian 13 lab bring-up", () => startOvnkubeLab({ id: OLD_ID, hosts: 1, os: "debian13", workDir: oldWork }));
    try {
        const r = await phase("preview", () => preview(old.offline));
        assert.equal(r.ok, false);
        assert.match(r.error ?? "", /OVN_Northbound 7\.11\.0 \(needs 7\.12\.0\)/);
        assert.match(r.error ?? "", /OVN 25\.09 or newer/);
        assert.deepEqual(
            r.ops.filter((o) => o.error).map((o) => o.name),
            ["ovn-node1-scripts"],
        );

        assert.equal(fs.existsSync(path.join(oldWork, "state", `${old.offline.stack}.json`)), false, "preview wrote a state");
        assert.deepEqual(ovsOvnDaemons(old.cluster), []);
        const ns = old.model.kube.namespace;
        assert.equal(await old.admin.tryGet({ apiVersion: "v1", kind: "Namespace", name: ns }), undefined);
        for (const node of await old.admin.list("v1", "Node"))
            assert.equal(node.metadata.annotations?.[NODE_SUBNETS_ANNOTATION], undefined, `${node.metadata.name} got a plan`);
    } finally {
        old.admin.close();
        await down(OLD_ID);
    }
});
