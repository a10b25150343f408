// Three centrals on bare local hosts (Pulumi mode), grown from one (README "Highly available
// central"): a single-central stack is applied, pods start, and the role "central" on two more
// nodes is applied again; the first central's databases become the clusters' first member with
// every row they held (same UUIDs), the others join, and the pods keep their network. Then NB and
// SB are raft clusters of 3, every chassis and the NB providers use all members. Proven through
// the databases themselves (cluster/status on every member), chassis in the SB, pods pinging
// across nodes and SNAT at the gateway; then the faults: a member down during up and refresh with
// pods pinging throughout, the member back, destroy leaving no cluster file.
import assert from "node:assert/strict";
import { reportFaultCell, secondsSince } from "../support/faultMatrix";
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { after, before, test } from "node:test";
import type { ClusterModel } from "../../components/model/types";
import { nbConnection } from "../../components/program/connections";
import { centralStatus, formatCentralStatus } from "../../components/status/centralStatus";
import { hostExec, podExec, startPod, stopPod, type LocalCluster, type LocalPod } from "../../lab/localcluster";
import { formatReport, overlayReport } from "../../lab/localcluster/checks";
import YAML from "yaml";
import { apply, destroy, preview, refresh, type OfflineOptions, type OperationResult } from "../../lab/offline/api";
import { applyNodes, expectedRows, sideModel } from "./support/nbApplyUnderFault";
import { haLab, removeHaLab, type HaLab } from "./support/haLab";
import { DBS, raftStatus } from "./support/raftStatus";
import { checkSvg } from "../support/svgCheck";
import {
    clusterOf as clusterOfMembers,
    electedAmong as electedAmongMembers,
    killDaemons,
    leaderOf as leaderOfMembers,
    restartMember as restartMemberOf,
    type Db,
} from "./support/raftMembers";

const ID = "ha3";
let lab: HaLab | undefined;
let cluster: LocalCluster;
let model: ClusterModel;
let options: OfflineOptions;
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

/** Every member's view of one database. */
const clusterOf = (db: Db, hosts?: string[]) => clusterOfMembers(centralsOf(), db, hosts);

before(async () => {
    lab = await haLab(ID, 1);
    ({ cluster, options } = lab);
    model = lab.restack(1);
});

after(() => removeHaLab(ID, lab));

/** Every Logical_Switch_Port's UUID and name, as one member reads them. */
const nbUuids = async (host: string) =>
    (await nbctl(host, "--bare", "--columns=_uuid,name", "list", "Logical_Switch_Port")).split("\n").filter(Boolean).sort();

test("one central grows to three in place: its rows become the clusters', the others join, pods keep pinging", async () => {
    const single = await apply(options);
    assert.equal(single.ok, true, single.error);
    pods = [await startPod(cluster, model, "node1", "ha", "pod-a", 10), await startPod(cluster, model, "node2", "ha", "pod-b", 11)];
    assert.ok((await overlayReport(cluster, model, pods)).allOk);
    const before = await nbUuids("node1");
    assert.equal(await raftStatus(cluster, "node1", "nb"), undefined, "standalone before");

    model = lab!.restack(3);
    const grown = await apply(options);
    assert.equal(grown.ok, true, grown.error);
    const ops = changed(grown);
    console.log(`# grow 1 -> 3: ${ops.join(", ")}`);
    assert.ok(!ops.some((o) => /^(delete|replace)/.test(o)), ops.join(", "));
    // The same rows, same UUIDs, read on a member that joined.
    assert.deepEqual(await nbUuids("node3"), before);
});

test("three centrals: one NB and one SB raft cluster of 3 members, each with one leader", async () => {
    assert.deepEqual(centrals(), ["node1", "node2", "node3"]);
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
        for (const v of views)
            assert.ok(v.status!.leader === leaderId || v.status!.leader === "self", `${v.host} ${db} names leader ${v.status!.leader}`);
        assert.equal(new Set(views.flatMap((v) => v.status!.servers.map((s) => s.id))).size, 3);
    }
    // Chassis list every SB member, and every chassis is in the SB.
    const sbList = cluster.hosts.map((h) => `tcp:${h.ip}:6642`).join(",");
    for (const h of cluster.hosts)
        assert.equal(
            (await sh(h.name, ["ovs-vsctl", "get", "Open_vSwitch", ".", "external_ids:ovn-remote"])).trim().replace(/"/g, ""),
            sbList,
        );
    const encaps = (await sbctl("node2", "--bare", "--columns=ip", "find", "Encap", "type=geneve")).split("\n").filter(Boolean).sort();
    assert.deepEqual(encaps, cluster.hosts.map((h) => h.ip).sort());
    // ovn-northd runs on every central; one holds the lock.
    const northd = await Promise.all(centrals().map((h) => sh(h, ["ovn-appctl", "-t", "ovn-northd", "status"])));
    assert.equal(northd.filter((s) => /active/.test(s) && !/standby/.test(s)).length, 1, northd.join(" | "));
    // The topology the providers wrote, read on a follower.
    const switches = (await nbctl("node3", "--bare", "--columns=name", "list", "Logical_Switch")).split("\n").filter(Boolean).sort();
    assert.deepEqual(switches, ["ext_node3", "join", "node1", "node2", "node3"]);
});

test("the pods started on one central ping and exchange TCP; SNAT at the gateway", async () => {
    const report = await overlayReport(cluster, model, pods);
    assert.ok(report.allOk, "\n" + formatReport(report));
    assert.equal(report.gateway.seenSource, model.gateways[0].physical.ip);
});

test("a second apply changes nothing", async () => {
    const r = await apply(options);
    assert.equal(r.ok, true, r.error);
    assert.deepEqual(changed(r), []);
});

test("a change of the cluster's members, or three centrals to one, is refused at preview, naming before and after", async () => {
    const file = options.stackFile!;
    const doc = YAML.parse(fs.readFileSync(file, "utf8"));
    doc.config["ovn-kubernetes:ovnTransport"] = { nbRaftPort: 7643 };
    fs.writeFileSync(file, YAML.stringify(doc));
    const refused = await preview(options);
    assert.equal(refused.ok, false);
    assert.match(
        refused.error ?? "",
        /cannot change in place: node1@[\d.]+, node2@[\d.]+, node3@[\d.]+ \(tcp, raft 6643\/6644, clients 6641\/6642\) -> .*raft 7643\/6644/,
    );
    lab!.restack(1);
    try {
        const single = await preview(options);
        assert.equal(single.ok, false);
        assert.match(single.error ?? "", /the clustered central \(node1, node2, node3\) cannot become a single central \(node1\) in place/);
        assert.deepEqual(
            single.ops.filter((o) => o.error !== undefined).map((o) => o.name),
            ["ovn-change-guard"],
        );
        assert.deepEqual(
            single.ops.filter((o) => o.op !== "same" && o.error === undefined),
            [],
            "no step",
        );
    } finally {
        model = lab!.restack(3);
    }
    const back = await preview(options);
    assert.equal(back.ok, true, back.error);
    assert.deepEqual(changed(back), []);
});

const centralsOf = () => ({ cluster, model });
const leaderOf = (db: Db, hosts?: string[]) => leaderOfMembers(centralsOf(), db, hosts);
const electedAmong = (db: Db, hosts: string[]) => electedAmongMembers(centralsOf(), db, hosts);
const kill = (host: string, pidfiles: string[]) => killDaemons(centralsOf(), host, pidfiles);
const restartMember = (host: string) => restartMemberOf(centralsOf(), host);

const FAULT_OWNER = "ovn-kubernetes/ha-fault";
const FAULT_TABLES = ["Logical_Router", "Logical_Router_Port", "Logical_Switch", "Logical_Switch_Port", "Load_Balancer"];

/** Rows carrying FAULT_OWNER, by table, and the (group, row) keys held by more than one row. */
async function ownedRows(host: string) {
    const ops = FAULT_TABLES.map((table) => ({
        op: "select",
        table,
        where: [["external_ids", "includes", ["map", [["pulumi-owner", FAULT_OWNER]]]]],
        columns: ["external_ids"],
    }));
    const out = await sh(host, [
        "ovsdb-client",
        "--timeout=30",
        "query",
        "unix:/var/run/ovn/ovnnb_db.sock",
        JSON.stringify(["OVN_Northbound", ...ops]),
    ]);
    const results = JSON.parse(out) as { rows: { external_ids: [string, [string, string][]] }[] }[];
    const counts: Record<string, number> = {};
    const seen = new Map<string, number>();
    results.forEach((r, i) => {
        if (r.rows.length) counts[FAULT_TABLES[i]] = r.rows.length;
        for (const row of r.rows) {
            const ids = Object.fromEntries(row.external_ids[1]);
            const key = `${ids["pulumi-group"]} ${ids["pulumi-row"]}`;
            seen.set(key, (seen.get(key) ?? 0) + 1);
        }
    });
    return { counts, duplicated: [...seen].filter(([, n]) => n > 1).map(([k]) => k) };
}

test("the NB leader's ovsdb-server killed in the middle of an apply: the apply follows the new leader; a re-run converges with no owned row lost or doubled", async (t) => {
    const side = sideModel(150, "fault");
    const key = fs.readFileSync(cluster.privateKeyPath, "utf8");
    const hosts = model.hosts.filter((h) => h.isCentral);
    const common = { nb: nbConnection(hosts[0], { privateKey: key }, hosts), owner: FAULT_OWNER };
    const victim = await leaderOf("nb");
    const started = Date.now();
    const first = await applyNodes(common, side, undefined, { afterCreates: 40, run: () => kill(victim, ["ovnnb_db.pid"]) });
    const seconds = (Date.now() - started) / 1000;
    const survivors = centrals().filter((h) => h !== victim);
    const successor = await electedAmong("nb", survivors);
    console.log(
        `# fault apply: ${first.created} of ${first.created + first.failed.length} created, ${first.failed.length} failed in ${seconds.toFixed(1)} s; NB leader ${victim} killed after 40 creates, new leader ${successor}`,
    );
    for (const f of first.failed) {
        console.log(`#   ${f.name}: ${f.error}`);
        // Failing clearly: the message names NB and what happened, never a bare protocol error.
        assert.match(f.error, /OVN_Northbound|OVSDB|leader|closed|another writer/, f.error);
    }
    // The next `up` creates what is not in state yet.
    const failedNames = new Set(first.failed.map((f) => f.name));
    const rerunStarted = Date.now();
    const second = await applyNodes(common, side, failedNames);
    assert.deepEqual(second.failed, [], JSON.stringify(second.failed));
    const rows = await ownedRows(successor);
    console.log(`# owned rows after the re-run: ${JSON.stringify(rows.counts)}`);
    assert.deepEqual(rows.counts, expectedRows(FAULT_OWNER, side));
    assert.deepEqual(rows.duplicated, []);
    reportFaultCell(t, {
        fault: "the NB leader's ovsdb-server killed (3 centrals, raft)",
        point: "the NB writes, after 40 node groups were created",
        mode: "Pulumi",
        outcome: `${first.failed.length === 0 ? `the apply followed the new leader: all ${first.created} created` : `${first.created} created, ${first.failed.length} failed naming NB`}; the re-run converged, no owned row lost or doubled`,
        convergeSeconds: secondsSince(rerunStarted),
    });
});

test("the killed member comes back: it rejoins, and status shows 3 members with one leader", async () => {
    const missing = (await Promise.all(centrals().map(async (h) => ((await raftStatus(cluster, h, "nb")) ? undefined : h)))).filter(
        Boolean,
    ) as string[];
    assert.equal(missing.length, 1, `members without NB: ${missing}`);
    await restartMember(missing[0]);
    const key = fs.readFileSync(cluster.privateKeyPath, "utf8");
    let rows = await centralStatus(model, key);
    for (let i = 0; i < 40 && rows.some((r) => r.raft?.status !== "cluster member" || r.raft.servers.length !== 3); i++) {
        await new Promise((r) => setTimeout(r, 500));
        rows = await centralStatus(model, key);
    }
    console.log(formatCentralStatus(rows).replace(/^/gm, "# "));
    assert.equal(rows.length, 6);
    for (const r of rows) assert.equal(r.raft?.status, "cluster member", `${r.host} ${r.db}: ${r.state} ${r.error ?? ""}`);
    for (const db of Object.values(DBS)) assert.equal(rows.filter((r) => r.db === db && r.raft!.role === "leader").length, 1, db);
    assert.ok(rows.every((r) => r.raft!.servers.length === 3));
});

test("one central down: up and refresh still work, and pods keep pinging through the leader changes", async () => {
    const victim = await leaderOf("sb");
    const nbLeader = await leaderOf("nb");
    // A continuous ping between the pods (5 a second) across the kill, the up and the refresh.
    const pinging = podExec(cluster, pods[0], ["ping", "-n", "-i", "0.2", "-w", "100", pods[1].ip], { timeoutMs: 130_000 });
    pinging.catch(() => undefined); // awaited below; a failure before then must not go unhandled
    await new Promise((r) => setTimeout(r, 3000));
    await kill(victim, ["ovnnb_db.pid", "ovnsb_db.pid", "ovn-northd.pid"]);
    const survivors = centrals().filter((h) => h !== victim);
    const newSb = await electedAmong("sb", survivors);
    const r = await apply(options);
    assert.equal(r.ok, true, r.error);
    assert.deepEqual(changed(r), []);
    const seen = await refresh({ ...options, dryRun: true });
    assert.equal(seen.ok, true, seen.error);
    assert.deepEqual(
        seen.drift.map((d) => d.name),
        [],
    );
    const result = await pinging;
    const stats = /(\d+) packets transmitted, (\d+) received/.exec(result.stdout);
    assert.ok(stats, result.stdout + result.stderr);
    const [sent, received] = [Number(stats[1]), Number(stats[2])];
    const loss = (100 * (sent - received)) / sent;
    console.log(
        `# central ${victim} down (SB leader; NB leader was ${nbLeader}); SB leader now ${newSb}; up and refresh passed; ping pod-a -> pod-b: ${sent} sent, ${received} received, ${loss.toFixed(1)}% loss`,
    );
    assert.ok(loss <= 5, `${loss}% loss`);
    await restartMember(victim);
    // status --svg: the three members, and the live topology drawn from the leader's NB, equal to the plan.
    const out = fs.mkdtempSync(path.join(os.tmpdir(), "ha-status-"));
    const tool = spawnSync(
        process.execPath,
        ["--import", "tsx", "cli/status.ts", options.stackFile!, "--ssh-key", cluster.privateKeyPath, "--svg", "--out", out],
        { encoding: "utf8", cwd: path.join(__dirname, "../..") },
    );
    console.log(tool.stdout.replace(/^/gm, "# "));
    assert.equal(tool.status, 0, tool.stderr);
    assert.match(tool.stdout, /the live topology: /);
    const { boxes } = checkSvg(fs.readFileSync(path.join(out, "topology-live.svg"), "utf8"));
    fs.rmSync(out, { recursive: true, force: true });
    for (const n of model.nodeNetworks) assert.equal(boxes.get(n.node), "box switch", `${n.node} drawn as planned`);
    assert.equal(boxes.get("ovn_cluster_router"), "box router");
    for (const g of model.gateways) assert.equal(boxes.get(`GR_${g.node}`), "box gateway", `GR_${g.node} drawn as planned`);
});

test("destroy: every member leaves, no cluster file and no database server is left on any central", async () => {
    for (const p of pods) await stopPod(cluster, model, p.node, p.namespace, p.pod);
    const r = await destroy(options);
    assert.equal(r.ok, true, r.error);
    for (const h of centrals()) {
        const files = await sh(h, ["bash", "-c", "ls -a /var/lib/ovn; ls /etc/systemd/system 2>/dev/null | grep ovn || true"]);
        assert.doesNotMatch(files, /ovn[ns]b_db|~lock~/, `${h}: ${files}`);
        const servers = await hostExec(cluster, h, [
            "bash",
            "-c",
            "ovs-appctl -t /var/run/ovn/ovnnb_db.ctl version; ovs-appctl -t /var/run/ovn/ovnsb_db.ctl version; ovn-appctl -t ovn-northd version",
        ]);
        assert.doesNotMatch(servers.stdout, /ovsdb-server|ovn-northd/, `${h} still runs: ${servers.stdout}`);
    }
});
