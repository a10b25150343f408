// End to end in ovnkube mode, on real parts only: 3 Debian 13 hosts (OVN 25.03), a Kubernetes
// control plane and kubelet stand-ins, the real ovnkube v1.0.0, and the real program applied by
// the offline engine. It proves that the program takes bare hosts to a working cluster whose
// topology ovnkube realised from the project's plan; that pods created through the API get their
// node's planned addresses through ovnkube's CNI path and reach each other, a ClusterIP Service
// and the outside (SNAT to their node's address); that every Northbound change has one writer
// (read from NB's own transaction log); that expectations report ovnkube's drift and `up` puts
// the plan back; and that the old combination (Debian 12's OVN 23.03) is refused before anything
// is touched. Phases print their wall time.
import assert from "node:assert/strict";
import * as fs from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { after, before, test } from "node:test";
import { MASTER, NODE, NODE_SUBNETS_ANNOTATION } from "../../components/kube/names";
import { addressAt, containsIp, parseNetwork, subnetAt } from "../../components/values";
import { gatewayRouter, routerToJoin, routerToSwitch } from "../../components/model/names";
import type { ClusterModel } from "../../components/model/types";
import { down, hostExec, type PodRef } from "../../localcluster";
import { pingMatrix, formatMatrix, tcpExchange } from "../../localcluster/checks";
import { createClusterIpService, kubePodExec, podRef, removeDemoWorkloads, startDemoPod, type KubePod } from "../../localcluster/kubeWorkloads";
import { pollUntil } from "../../kubeclient";
import { apply, preview, refresh, type OperationResult } from "../../offline/api";
import { ovsOvnDaemons, processesNamed } from "./support/hostDaemons";
import { extendsLog, readNbLog, writerReport, type NbLog, type NbWriter } from "./support/nbTransactionLog";
import { bringUpOvnkubeLab, startOvnkubeLab, type OvnkubeLab } from "./support/ovnkubeLab";
import { plannedOvnkubePods, recreateOvnkubePods, waitNodesReady, waitOvnkubePodsRunning } from "./support/ovnkubePods";

const ID = "e2ek8s";
const OLD_ID = "e2eold";
const HOSTS = 3;
const SERVER_PORT = 8080;
const GREETING = "hello from the server pod";
/** The program's resource names for node2 (component `ovn`): its Node plan and its switch's expectation. */
const NODE2_PLAN = "ovn-ovnkube-node2-plan";
const NODE2_EXPECTATION = "ovn-expect-node-node2";

let work: string;
let lab: OvnkubeLab;
let model: ClusterModel;
let pods: KubePod[] = [];
/** NB transactions at each phase boundary, to count who wrote what in each phase. */
const marks: Array<{ phase: string; log: NbLog }> = [];

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
async function phase<T>(name: string, body: () => Promise<T>): Promise<T> {
    const started = Date.now();
    try {
        return await body();
    } finally {
        console.log(`phase ${name}: ${seconds(Date.now() - started)}`);
    }
}

const central = () => model.hosts.find((h) => h.isCentral)!.name;
/** Reads NB's log at the end of a phase and prints who committed the phase's transactions. */
function markNb(name: string): NbLog {
    const log = readNbLog(lab.cluster, central());
    const previous = marks.at(-1);
    // Attribution needs the whole history: a compacted (rewritten) file would lose it.
    if (previous) assert.ok(extendsLog(previous.log, log), `the NB log was rewritten between "${previous.phase}" and "${name}"`);
    const counts = writerReport(log.transactions.slice(previous?.log.transactions.length ?? 0)).transactions;
    console.log(`NB transactions in "${name}": ${Object.entries(counts).map(([writer, n]) => `${writer} ${n}`).join(", ")}`);
    marks.push({ phase: name, log });
    return log;
}

async function nbctl(argv: string[]): Promise<string> {
    const r = await hostExec(lab.cluster, central(), ["ovn-nbctl", "--timeout=10", ...argv]);
    assert.equal(r.code, 0, `ovn-nbctl ${argv.join(" ")}: ${r.stderr}`);
    return r.stdout.trim();
}
/** A column's value: ovn-nbctl prints strings quoted and sets as [..], which parse as JSON for addresses. */
async function nbGet(table: string, record: string, column: string): Promise<unknown> {
    const text = await nbctl(["--if-exists", "get", table, record, column]);
    return text === "" ? undefined : JSON.parse(text);
}

/** Later tests work on the cluster the first one brought up. */
function requireLab(): void {
    assert.ok(lab, "the bring-up test did not bring the cluster up: nothing to test");
}

const changed = (r: OperationResult) => r.ops.filter((o) => o.op !== "same").map((o) => `${o.op} ${o.name}`).sort();
const drift = (r: OperationResult) => r.drift.map((d) => `${d.name} [${d.keys.join(", ")}]`).sort();
const subnetOf = (node: string) => model.kube.nodes.find((n) => n.name === node)!.subnet;

before(async () => {
    await down(ID);
    await down(OLD_ID);
    work = fs.mkdtempSync(path.join(tmpdir(), "e2e-ovnkube-"));
});

after(async () => {
    lab?.admin.close();
    await down(ID);
    await down(OLD_ID);
    if (work) fs.rmSync(work, { recursive: true, force: true });
});

test("bring-up from bare hosts to up in ovnkube mode: ovnkube runs from the program's DaemonSets and realises the plan", async () => {
    let bare: string[] = ["not looked at"];
    const up = await phase("bring-up and first up", () =>
        bringUpOvnkubeLab({ id: ID, hosts: HOSTS, os: "debian13", workDir: path.join(work, "main") }, async (l) => {
            bare = ovsOvnDaemons(l.cluster);
        }),
    );
    lab = up.lab;
    model = lab.model;
    console.log(`bring-up (hosts, control plane, kubelets) ${seconds(up.timings.bringUpMs)}; first up ${seconds(up.timings.applyMs)}, ${up.timings.resources} resources`);
    assert.deepEqual(bare, [], "the hosts were not bare before the first up");
    assert.equal(up.first.ok, true, up.first.error);
    assert.equal(model.writer, "ovnkube");

    const running = await waitOvnkubePodsRunning(lab.admin, model.kube, 120_000);
    assert.deepEqual(running.map((p) => p.placement), plannedOvnkubePods(model.kube));
    assert.ok(running.some((p) => p.placement.startsWith(`${MASTER}@`)) && running.some((p) => p.placement.startsWith(`${NODE}@`)));
    // The stand-ins run them as processes on their hosts: one ovnkube per pod.
    assert.deepEqual(processesNamed(lab.cluster, ["ovnkube"]), running.map((p) => `${p.placement.split("@")[1]}: ovnkube`).sort());
    assert.deepEqual(await waitNodesReady(lab.admin, 60_000), lab.cluster.hosts.map((h) => h.name));

    // The stack's output and the model are the same plan; ovnkube's rows carry it.
    assert.deepEqual(up.first.outputs.nodeSubnets, Object.fromEntries(model.kube.nodes.map((n) => [n.name, n.subnet])));
    for (const node of model.kube.nodes) {
        assert.equal(await nbGet("Logical_Switch", node.name, "other_config:subnet"), node.subnet, `switch ${node.name}`);
        assert.deepEqual(await nbGet("Logical_Router_Port", routerToJoin(gatewayRouter(node.name)), "networks"), [node.gatewayRouterJoin.cidr], `${gatewayRouter(node.name)}`);
    }
    markNb("bring-up, ovnkube settled");
});

test("pods created through the API get their node's planned addresses, ping each other, reach a ClusterIP Service and the outside through SNAT", async () => {
    requireLab();
    await phase("workloads", async () => {
        const client = await startDemoPod(lab.admin, lab.cluster, lab.kubernetes, { name: "client", node: "node1", labels: { app: "e2e-client" }, command: ["sleep", "infinity"] });
        pods.push(client);
        const server = await startDemoPod(lab.admin, lab.cluster, lab.kubernetes, {
            name: "server",
            node: "node2",
            labels: { app: "e2e-server" },
            command: ["/bin/sh", "-c", `while true; do echo "$0" | nc -N -l ${SERVER_PORT}; done`, GREETING],
        });
        pods.push(server);
        for (const pod of pods) {
            assert.ok(containsIp(parseNetwork(subnetOf(pod.node)), pod.ip), `${pod.name} got ${pod.ip}, outside ${pod.node}'s planned ${subnetOf(pod.node)}`);
            // ovnkube allocated it (its annotation) and its CNI shim plumbed it (the address on eth0).
            const annotation = JSON.parse((await lab.admin.get({ apiVersion: "v1", kind: "Pod", namespace: pod.namespace, name: pod.name })).metadata.annotations?.["k8s.ovn.org/pod-networks"] ?? "{}");
            assert.deepEqual(annotation.default?.ip_addresses, [`${pod.ip}/${parseNetwork(subnetOf(pod.node)).prefix}`]);
            assert.match((await kubePodExec(pod, ["ip", "-4", "-o", "addr", "show", "dev", "eth0"])).stdout, new RegExp(`inet ${pod.ip.replace(/\./g, "\\.")}/`));
        }

        // Every pod and every host reaches every pod and every node's management port (ovnkube-node's
        // ovn-k8s-mp0, at the planned .2), across nodes over Geneve.
        const matrix = await pingMatrix(
            lab.cluster,
            [...pods.map((p) => ({ label: p.name, from: podRef(p) as string | PodRef })), ...lab.cluster.hosts.map((h) => ({ label: h.name, from: h.name }))],
            [...pods.map((p) => ({ label: p.name, ip: p.ip })), ...model.nodeNetworks.map((n) => ({ label: `${n.node} mgmt`, ip: n.mgmt.ip }))],
        );
        assert.ok(matrix.allOk, "\n" + formatMatrix(matrix));
        const direct = await tcpExchange(lab.cluster, { pod: podRef(server) }, server.ip, { pod: podRef(client) });
        assert.deepEqual(direct, { ok: true, seenSource: client.ip }, "TCP pod → pod on another node keeps the client's address");

        const clusterIp = await createClusterIpService(lab.admin, { name: "e2e-server", selector: { app: "e2e-server" }, port: 80, targetPort: SERVER_PORT });
        assert.ok(containsIp(parseNetwork(model.serviceSubnet), clusterIp), `ClusterIP ${clusterIp} outside ${model.serviceSubnet}`);
        // ovnkube adds the Service's load balancer to every switch asynchronously.
        const answer = await pollUntil(
            async () => {
                const r = await kubePodExec(client, ["nc", "-w", "2", clusterIp, "80"], { timeoutMs: 10_000 });
                if (r.stdout.trim() !== GREETING) throw new Error(`exit ${r.code}, answer ${JSON.stringify(r.stdout.trim())} ${r.stderr.trim()}`);
                return r.stdout.trim();
            },
            { timeoutMs: 30_000, intervalMs: 500, what: `the server pod's answer through ClusterIP ${clusterIp}:80` },
        );
        assert.equal(answer, GREETING);

        const snat = await tcpExchange(lab.cluster, { external: true }, lab.cluster.external.ip, { pod: podRef(client) });
        const node1 = model.kube.nodes.find((n) => n.name === client.node)!;
        assert.deepEqual(snat, { ok: true, seenSource: node1.gatewayIp }, `the outside sees ${client.node}'s address`);
    });
    markNb("workloads");
});

test("one writer per Northbound cell; a second up and a refresh change nothing, also after ovnkube's pods are recreated", async () => {
    requireLab();
    const upAndRefreshChangeNothing = async () => {
        const again = await apply(lab.offline);
        assert.equal(again.ok, true, again.error);
        assert.deepEqual(changed(again), []);
        const refreshed = await refresh(lab.offline);
        assert.equal(refreshed.ok, true, refreshed.error);
        assert.deepEqual(drift(refreshed), []);
    };
    await phase("second up and refresh", upAndRefreshChangeNothing);
    markNb("second up and refresh");

    await phase("ovnkube pods recreated, up and refresh", async () => {
        await recreateOvnkubePods(lab.admin, model.kube, () => true, 120_000);
        await upAndRefreshChangeNothing();
    });
    markNb("ovnkube restarted, up and refresh");

    await phase("workloads removed", () => removeDemoWorkloads(lab.admin, lab.cluster, pods, [{ name: "e2e-server" }]));
    pods = [];
    const all = markNb("workloads removed");

    const report = writerReport(all.transactions);
    console.log(`NB log (${all.schema.name} ${all.schema.version}) so far: ${Object.entries(report.transactions).map(([writer, n]) => `${writer} ${n}`).join(", ")} transactions`);
    assert.deepEqual(report.others, [], "transactions of writers other than the project, ovn-northd and ovnkube");
    assert.deepEqual(report.shared, [], "cells written by more than one writer");
    const tablesOf = (writer: NbWriter) => [...new Set(Object.entries(report.byColumn).filter(([, w]) => w.includes(writer)).map(([c]) => c.split(".")[0]))].sort();
    // The project writes only what nobody else does: the NB_Global row and the listener.
    for (const table of tablesOf("project")) assert.ok(["NB_Global", "Connection", "SSL"].includes(table), `the project wrote ${table}`);
    assert.ok(report.transactions.project > 0 && report.transactions.ovnkube > 0);
    // ovn-northd reports state back into NB, in the columns OVN gives it (ovn-nb(5)): a port's
    // `up` once its chassis claimed it, a gateway port's hosting chassis, and its own NB_Global
    // options (MAC prefix, tunnel key range, service monitor MAC, its internal version). These
    // are northd's alone (no cell is shared, asserted above); listed so any other write fails.
    const NORTHD_CELLS = [
        "Logical_Switch_Port.up",
        "Logical_Router_Port.status:hosting-chassis",
        "NB_Global.options:mac_prefix",
        "NB_Global.options:max_tunid",
        "NB_Global.options:svc_monitor_mac",
        "NB_Global.options:northd_internal_version",
        "NB_Global.nb_cfg_timestamp",
        "NB_Global.sb_cfg",
        "NB_Global.sb_cfg_timestamp",
        "NB_Global.hv_cfg",
        "NB_Global.hv_cfg_timestamp",
    ];
    for (const [cell, writers] of Object.entries(report.byColumn)) if (writers.includes("ovn-northd")) assert.ok(NORTHD_CELLS.includes(cell), `ovn-northd wrote ${cell}`);
});

/** A node subnet of the cluster network that no node has: where a hand-edited annotation moves node2. */
function freeNodeSubnet(): string {
    const cluster = parseNetwork(model.clusterSubnet);
    const prefix = parseNetwork(subnetOf("node2")).prefix;
    const used = new Set(model.kube.nodes.map((n) => n.subnet));
    for (let i = 0; ; i++) {
        const candidate = subnetAt(cluster, prefix, i).text;
        if (!used.has(candidate)) return candidate;
    }
}

test("expectations: ovnkube's drift from a hand-edited annotation is reported and undone by up; a deleted node switch is reported and rebuilt by ovnkube", async () => {
    requireLab();
    const node2 = model.nodeNetworks.find((n) => n.node === "node2")!;
    const rtos = routerToSwitch("node2");
    const moved = freeNodeSubnet();
    const movedRouter = `${addressAt(parseNetwork(moved), 1)}/${parseNetwork(moved).prefix}`;

    await phase("annotation edited by hand, refresh, up", async () => {
        await lab.admin.patch({ apiVersion: "v1", kind: "Node", name: "node2" }, { metadata: { annotations: { [NODE_SUBNETS_ANNOTATION]: JSON.stringify({ default: [moved] }) } } }, "merge", { fieldManager: "e2e-by-hand" });
        // ovnkube-master follows the annotation: node2's router port moves to the new subnet.
        await pollUntil(async () => ((await nbGet("Logical_Router_Port", rtos, "networks")) as string[])[0] === movedRouter || undefined, {
            timeoutMs: 60_000,
            intervalMs: 500,
            what: `ovnkube to move ${rtos} to ${movedRouter}`,
        });
        const seen = await refresh({ ...lab.offline, dryRun: true });
        assert.equal(seen.ok, true, seen.error);
        assert.deepEqual(drift(seen), [`${NODE2_EXPECTATION} [rows]`, `${NODE2_PLAN} [metadata]`]);

        // `pulumi up --refresh`: the refresh takes in the drift, the update re-applies the plan.
        const fixed = await apply({ ...lab.offline, refresh: true });
        assert.equal(fixed.ok, true, fixed.error);
        assert.deepEqual(changed(fixed), [`update ${NODE2_EXPECTATION}`, `update ${NODE2_PLAN}`]);
        const annotations = (await lab.admin.get({ apiVersion: "v1", kind: "Node", name: "node2" })).metadata.annotations ?? {};
        assert.deepEqual(JSON.parse(annotations[NODE_SUBNETS_ANNOTATION]), { default: [node2.subnet] });
        assert.deepEqual(await nbGet("Logical_Router_Port", rtos, "networks"), [node2.router.cidr]);
        // (ovnkube v1.0.0 moves the router and management ports with the annotation but keeps the
        // switch's other_config:subnet as first written, so this holds throughout.)
        assert.equal(await nbGet("Logical_Switch", node2.switchName, "other_config:subnet"), node2.subnet);
        assert.deepEqual(drift(await refresh({ ...lab.offline, dryRun: true })), []);
    });

    await phase("node switch deleted by hand, refresh, ovnkube rebuilds it", async () => {
        await nbctl(["ls-del", node2.switchName]);
        const seen = await refresh({ ...lab.offline, dryRun: true });
        assert.equal(seen.ok, true, seen.error);
        assert.deepEqual(drift(seen), [`${NODE2_EXPECTATION} [rows]`]);

        // ovnkube v1.0.0 builds a node's switch when it first handles the node and when the master
        // starts (it syncs every node then); a switch deleted behind its back stayed gone through
        // 5 minutes of node updates here. The remedy is the master's restart: its DaemonSet
        // recreates the pod, and the new master rebuilds the switch from the node's annotations.
        await recreateOvnkubePods(lab.admin, model.kube, (p) => p.placement.startsWith(`${MASTER}@`), 120_000);
        await pollUntil(async () => (await nbGet("Logical_Switch", node2.switchName, "other_config:subnet")) === node2.subnet || undefined, {
            timeoutMs: 60_000,
            intervalMs: 500,
            what: `ovnkube to rebuild switch ${node2.switchName} with ${node2.subnet}`,
        });
        const clean = await refresh({ ...lab.offline, dryRun: true });
        assert.equal(clean.ok, true, clean.error);
        assert.deepEqual(drift(clean), []);
    });

    // The check that found one writer per cell sees the hand-made deletion as a second writer of
    // the switch ovnkube had created.
    const report = writerReport(markNb("hand-made changes undone").transactions);
    assert.equal(report.others.length, 1);
    assert.match(report.others[0], new RegExp(`^ovn-nbctl: .* ls-del ${node2.switchName}$`));
    assert.ok(
        report.shared.some((c) => c.table === "Logical_Switch" && c.cell === "(row)" && c.writers.join(",") === "other,ovnkube"),
        `no shared switch row in ${JSON.stringify(report.shared)}`,
    );
});

test("the old combination is refused at preview, before anything changes: ovnkube v1.0.0 with a Debian 12 central (OVN 23.03)", async () => {
    // The main cluster has proven what it can; its processes would only slow this one down.
    lab?.admin.close();
    await down(ID);
    const oldWork = path.join(work, "old");
    const old = await phase("Debian 12 lab bring-up", () => startOvnkubeLab({ id: OLD_ID, hosts: 1, os: "debian12", workDir: oldWork }));
    try {
        const r = await phase("preview", () => preview(old.offline));
        assert.equal(r.ok, false);
        assert.match(r.error ?? "", /OVN_Northbound 7\.0\.0 \(needs 7\.3\.0\)/);
        assert.deepEqual(r.ops.filter((o) => o.error).map((o) => o.name), ["ovn-ovnkube-schema"]);

        assert.equal(fs.existsSync(path.join(oldWork, "state", `${old.offline.stack}.json`)), false, "preview wrote a state");
        assert.deepEqual(ovsOvnDaemons(old.cluster), []);
        const ns = old.model.kube.namespace;
        assert.equal(await old.admin.tryGet({ apiVersion: "v1", kind: "Namespace", name: ns }), undefined);
        for (const [apiVersion, kind] of [["v1", "Pod"], ["v1", "ConfigMap"], ["v1", "ServiceAccount"], ["apps/v1", "DaemonSet"]])
            assert.deepEqual(await old.admin.list(apiVersion, kind, { namespace: ns }), [], `${kind} in ${ns}`);
        for (const node of await old.admin.list("v1", "Node")) assert.equal(node.metadata.annotations?.[NODE_SUBNETS_ANNOTATION], undefined, `${node.metadata.name} got a plan`);
    } finally {
        old.admin.close();
        await down(OLD_ID);
    }
});
