// Growing a single central into three (README "Highly available central"): a running
// single-central stack gets the role "central" on two more nodes and is applied again. The first
// central's databases become the clusters' first member with every row they held, the others
// join, chassis and the NB providers move to the member lists, and pods keep their network.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import type { ClusterModel } from "../../components/model/types";
import { hostExec, startPod, stopPod, type LocalCluster, type LocalPod } from "../../lab/localcluster";
import { formatReport, overlayReport } from "../../lab/localcluster/checks";
import { apply, destroy, type OfflineOptions } from "../../lab/offline/api";
import { haLab, removeHaLab, type HaLab } from "./support/haLab";
import { raftStatus } from "./support/raftStatus";

const ID = "hagr";
let lab: HaLab | undefined;
let cluster: LocalCluster;
let options: OfflineOptions;
let model: ClusterModel;
let pods: LocalPod[] = [];

const nbUuids = async (host: string) => {
    const r = await hostExec(cluster, host, [
        "ovn-nbctl",
        "--no-leader-only",
        "--timeout=20",
        "--bare",
        "--columns=_uuid,name",
        "list",
        "Logical_Switch_Port",
    ]);
    assert.equal(r.code, 0, r.stderr);
    return r.stdout.split("\n").filter(Boolean).sort();
};

before(async () => {
    lab = await haLab(ID, 1);
    ({ cluster, options } = lab);
});

after(() => removeHaLab(ID, lab));

test("one central grows to three in place: its rows become the clusters', the others join, pods keep pinging", async () => {
    const single = await apply(options);
    assert.equal(single.ok, true, single.error);
    model = lab!.restack(1);
    pods = [await startPod(cluster, model, "node1", "grow", "pod-a", 10), await startPod(cluster, model, "node2", "grow", "pod-b", 11)];
    assert.ok((await overlayReport(cluster, model, pods)).allOk);
    const before = await nbUuids("node1");
    assert.equal(await raftStatus(cluster, "node1", "nb"), undefined, "standalone before");

    model = lab!.restack(3);
    const grown = await apply(options);
    assert.equal(grown.ok, true, grown.error);
    const ops = grown.ops.filter((o) => o.op !== "same").map((o) => `${o.op} ${o.name}`);
    console.log(`# grow 1 -> 3: ${ops.join(", ")}`);
    assert.ok(!ops.some((o) => /^(delete|replace)/.test(o)), ops.join(", "));
    for (const db of ["nb", "sb"] as const) {
        const views = await Promise.all(["node1", "node2", "node3"].map((h) => raftStatus(cluster, h, db)));
        assert.ok(
            views.every((v) => v?.status === "cluster member" && v.servers.length === 3),
            `${db}: ${JSON.stringify(views)}`,
        );
        assert.equal(views.filter((v) => v!.role === "leader").length, 1, db);
    }
    // The same rows, same UUIDs, read on a member that joined.
    assert.deepEqual(await nbUuids("node3"), before);
    const report = await overlayReport(cluster, model, pods);
    assert.ok(report.allOk, "\n" + formatReport(report));
    const again = await apply(options);
    assert.equal(again.ok, true, again.error);
    assert.deepEqual(
        again.ops.filter((o) => o.op !== "same").map((o) => o.name),
        [],
    );
});

test("destroy after growing leaves no cluster file on any central", async () => {
    for (const p of pods) await stopPod(cluster, model, p.node, p.namespace, p.pod);
    const r = await destroy(options);
    assert.equal(r.ok, true, r.error);
    for (const h of ["node1", "node2", "node3"]) {
        const files = await hostExec(cluster, h, ["bash", "-c", "ls -a /var/lib/ovn"]);
        assert.doesNotMatch(files.stdout, /ovn[ns]b_db/, `${h}: ${files.stdout}`);
    }
});
