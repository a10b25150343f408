// End to end on bare local hosts: the real program (index.ts) applied through the SDK's program
// runner by the offline apply, then proven by packets: chassis registered, the NB topology of the
// model, management ports reachable from every node, pods on different nodes exchanging ping and
// TCP over Geneve, a pod reaching the outside through the gateway with SNAT. Then idempotence,
// drift found and repaired, destroy, and a down that leaves nothing behind.
import assert from "node:assert/strict";
import * as fs from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { after, before, test } from "node:test";
import { readStackFile } from "../../components/config/stackFile";
import { validateConfig } from "../../components/plan/validate";
import { buildClusterModel } from "../../components/model/clusterModel";
import type { ClusterModel } from "../../components/model/types";
import { desiredNorthbound } from "../../components/render/northbound";
import {
    down,
    hostExec,
    LOCAL_LAB_PASSPHRASE,
    ping,
    startPod,
    stopPod,
    up,
    writeLocalStack,
    type LocalCluster,
    type LocalPod,
} from "../../lab/localcluster";
import { overlayReport, pingMatrix, formatReport, formatMatrix } from "../../lab/localcluster/checks";
import { apply, destroy, refresh, type OfflineOptions, type OperationResult } from "../../lab/offline/api";
import { assertExploreCommandsWork } from "./support/exploreCommands";
import { leftovers, processesIn, stillRunning, type ProcessMark } from "../localcluster/leftovers";

const ID = "e2e";
const STACK = `local-${ID}`;
const OWNER = `ovn-kubernetes/${STACK}`;
let cluster: LocalCluster;
let model: ClusterModel;
let options: OfflineOptions;
let work: string;
let pods: LocalPod[] = [];
let daemons: ProcessMark[] = [];

const sh = async (host: string, argv: string[]) => {
    const r = await hostExec(cluster, host, argv);
    assert.equal(r.code, 0, `${host}: ${argv.join(" ")}: ${r.stderr}`);
    return r.stdout;
};
const central = () => model.hosts.find((h) => h.isCentral)!.name;
const nbNames = async (table: string) =>
    (await sh(central(), ["ovn-nbctl", "--bare", "--columns=name", "list", table])).split("\n").filter(Boolean).sort();
const changed = (r: OperationResult) => r.ops.filter((o) => o.op !== "same").map((o) => `${o.op} ${o.name}`);

before(async () => {
    await down(ID);
    cluster = await up({ id: ID, hosts: 3 });
    work = fs.mkdtempSync(path.join(tmpdir(), "e2e-"));
    const stackFile = writeLocalStack(cluster, path.join(work, `Pulumi.${STACK}.yaml`), { passphrase: LOCAL_LAB_PASSPHRASE });
    model = buildClusterModel(validateConfig(readStackFile(stackFile)));
    options = { stack: STACK, stackFile, localDir: work, passphrase: LOCAL_LAB_PASSPHRASE };
});

after(async () => {
    if (cluster) await down(ID);
    if (work) fs.rmSync(work, { recursive: true, force: true });
});

test("apply on bare hosts: chassis registered with their encap IPs, the model's NB topology in place", async () => {
    const r = await apply(options);
    assert.equal(r.ok, true, r.error);
    assert.equal(r.counts.updated + r.counts.replaced + r.counts.deleted, 0);

    const encaps = (await sh(central(), ["ovn-sbctl", "--bare", "--columns=ip", "find", "Encap", "type=geneve"]))
        .split("\n")
        .filter(Boolean)
        .sort();
    assert.deepEqual(encaps, cluster.hosts.map((h) => h.ip).sort());
    const systemIds = r.outputs.systemIds as Record<string, string>;
    const chassisNames = (await sh(central(), ["ovn-sbctl", "--bare", "--columns=name", "list", "Chassis"]))
        .split("\n")
        .filter(Boolean)
        .sort();
    assert.deepEqual(chassisNames, Object.values(systemIds).sort());

    // Every named row the model asks for exists, in its table.
    for (const group of desiredNorthbound(model, OWNER))
        for (const row of group.rows)
            if (typeof row.columns.name === "string" && row.columns.name)
                assert.ok((await nbNames(row.table)).includes(row.columns.name), `${row.table} ${row.columns.name}`);
    assert.deepEqual(await nbNames("Logical_Switch"), ["ext_node3", "join", "node1", "node2", "node3"]);
    const gw = model.gateways[0];
    assert.equal(
        (await sh(central(), ["ovn-nbctl", "get", "Logical_Router", gw.router, "options:chassis"])).trim().replace(/"/g, ""),
        systemIds.node3,
    );
    const nat = await sh(central(), ["ovn-nbctl", "lr-nat-list", gw.router]);
    assert.match(nat, new RegExp(`snat\\s+${gw.physical.ip.replace(/\./g, "\\.")}\\s+${model.clusterSubnets[0].replace(/[./]/g, "\\$&")}`));
    const routes = await sh(central(), ["ovn-nbctl", "lr-route-list", model.clusterRouter.name]);
    assert.match(routes, new RegExp(`0\\.0\\.0\\.0/0\\s+${gw.join.ip.replace(/\./g, "\\.")}`));
});

test("the demo's explore commands work as printed: NB and SB shown on the central", async () => {
    assert.deepEqual(await assertExploreCommandsWork(ID, model), [
        `npm run local -- exec --id ${ID} node1 -- ovn-nbctl show`,
        `npm run local -- exec --id ${ID} node1 -- ovn-sbctl show`,
    ]);
});

test("every management port answers ping from every node", async () => {
    const m = await pingMatrix(
        cluster,
        cluster.hosts.map((h) => ({ label: h.name, from: h.name })),
        model.nodeNetworks.map((n) => ({ label: n.mgmtPort, ip: n.mgmt.ip })),
    );
    assert.ok(m.allOk, "\n" + formatMatrix(m));
});

test("pods on different nodes ping and exchange TCP; a pod reaches the outside through the gateway with SNAT", async () => {
    pods = [await startPod(cluster, model, "node1", "e2e", "pod-a", 10), await startPod(cluster, model, "node2", "e2e", "pod-b", 11)];
    const report = await overlayReport(cluster, model, pods);
    assert.ok(report.allOk, "\n" + formatReport(report));
    assert.equal(report.gateway.seenSource, model.gateways[0].physical.ip);
    assert.equal(report.podTcp.seenSource, pods[0].ip);
});

test("a second apply changes nothing", async () => {
    const r = await apply(options);
    assert.equal(r.ok, true, r.error);
    assert.deepEqual(changed(r), []);
    assert.ok(r.counts.unchanged > 30, `unchanged ${r.counts.unchanged}`);
});

test("drift: a management port deleted by hand is reported by refresh and restored by the next apply", async () => {
    const node2 = model.nodeNetworks.find((n) => n.node === "node2")!;
    await sh(central(), ["ovn-nbctl", "lsp-del", node2.mgmtPort]);
    // The port is gone: within a bounded wait (flows are removed asynchronously) it stops answering.
    let unreachable = false;
    for (let i = 0; i < 15 && !unreachable; i++) unreachable = !(await ping(cluster, pods[0], node2.mgmt.ip, 1));
    assert.ok(unreachable, `${node2.mgmt.ip} still answers after its port was deleted`);

    const seen = await refresh({ ...options, dryRun: true });
    assert.equal(seen.ok, true, seen.error);
    assert.deepEqual(
        seen.drift.map((d) => d.name),
        ["ovn-node2-switch"],
    );

    const fixed = await apply({ ...options, refresh: true });
    assert.equal(fixed.ok, true, fixed.error);
    assert.deepEqual(changed(fixed), ["update ovn-node2-switch"]);
    assert.ok((await nbNames("Logical_Switch_Port")).includes(node2.mgmtPort));
    const report = await overlayReport(cluster, model, pods);
    assert.ok(report.allOk, "\n" + formatReport(report));
});

test("destroy leaves no NB row of the stack, no breth0, eth0 as before", async () => {
    const eth0Before = (await sh("node3", ["ip", "-4", "-o", "addr", "show", "dev", "breth0"])).match(/inet (\S+)/)![1];
    for (const p of pods) await stopPod(cluster, model, p.node, p.namespace, p.pod);
    const r = await destroy(options);
    assert.equal(r.ok, true, r.error);
    for (const table of [
        "Logical_Switch",
        "Logical_Switch_Port",
        "Logical_Router",
        "Logical_Router_Port",
        "Logical_Router_Static_Route",
        "NAT",
        "Load_Balancer",
    ]) {
        const owned = await sh(central(), [
            "ovn-nbctl",
            "--bare",
            "--columns=_uuid",
            "find",
            table,
            `external_ids:pulumi-owner="${OWNER}"`,
        ]);
        assert.equal(owned.trim(), "", `${table} still has rows of the stack`);
    }
    const links = await sh("node3", ["ip", "-o", "link", "show"]);
    assert.doesNotMatch(links, /breth0/);
    assert.match(
        await sh("node3", ["ip", "-4", "-o", "addr", "show", "dev", "eth0"]),
        new RegExp(`inet ${eth0Before.replace(/[./]/g, "\\$&")}`),
    );
    daemons = processesIn(leftovers(ID).netns);
    assert.ok(daemons.length > 0);
});

test("down leaves no process, namespace, link or mount behind", async () => {
    await down(ID);
    assert.deepEqual(stillRunning(daemons), []);
    assert.deepEqual(leftovers(ID), { netns: [], links: [], mounts: [] });
});
