// Three centrals over SSL on bare local hosts (Pulumi mode): raft between the members, the NB and
// SB listeners and every client (chassis, ovn-northd, the NB providers) use SSL with the stack's
// key, certificate and CA. Proven through the databases themselves: every member's cluster/status
// lists the 3 members at ssl: raft addresses with one leader; the listeners are pssl only (a
// plain client gets no answer, a client with the CA's certificate does); every chassis is in the SB.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import type { ClusterModel } from "../../components/model/types";
import { hostExec, LOCAL_LAB_PASSPHRASE, type LocalCluster } from "../../lab/localcluster";
import { apply, type OfflineOptions } from "../../lab/offline/api";
import { makePki } from "../../lab/harness/pki";
import { setStackConfig } from "../support/stackSecrets";
import { haLab, removeHaLab, type HaLab } from "./support/haLab";
import { DBS, raftStatus } from "./support/raftStatus";

const ID = "ha3ssl";
let lab: HaLab | undefined;
let cluster: LocalCluster;
let model: ClusterModel;
let options: OfflineOptions;
const pki = makePki(ID);

const sh = async (host: string, script: string) => {
    const r = await hostExec(cluster, host, ["bash", "-c", script]);
    return { ...r, out: r.stdout.trim() };
};
const ipOf = (host: string) => cluster.hosts.find((h) => h.name === host)!.ip;
/** The central's own SSL files (written by its create script), as a client on that host uses them. */
const CLIENT_SSL =
    "--private-key=/etc/ovn/ovn-central-privkey.pem --certificate=/etc/ovn/ovn-central-cert.pem --ca-cert=/etc/ovn/ovn-central-cacert.pem";

before(async () => {
    lab = await haLab(ID, 3);
    ({ cluster, options } = lab);
    setStackConfig(options.stackFile!, LOCAL_LAB_PASSPHRASE, {
        plain: { "ovn-kubernetes:ovnTransport": { protocol: "ssl" } },
        secret: {
            "ovn-kubernetes:ovnSslPrivateKey": pki.key,
            "ovn-kubernetes:ovnSslCertificate": pki.cert,
            "ovn-kubernetes:ovnSslCaCertificate": pki.ca,
        },
    });
    model = lab.model();
});

after(() => removeHaLab(ID, lab));

test("apply with three centrals over ssl: raft between the members runs over ssl, one leader per database", async () => {
    assert.equal(model.central!.cluster?.members.length, 3);
    const r = await apply(options);
    assert.equal(r.ok, true, r.error);
    for (const db of ["nb", "sb"] as const) {
        const raftPort = db === "nb" ? 6643 : 6644;
        const views = await Promise.all(cluster.hosts.map(async (h) => ({ host: h.name, status: await raftStatus(cluster, h.name, db) })));
        for (const v of views) {
            assert.ok(v.status, `${v.host} ${db}: no cluster/status`);
            assert.equal(v.status.status, "cluster member", `${v.host} ${db}`);
            assert.deepEqual(
                v.status.servers.map((s) => s.address).sort(),
                cluster.hosts.map((h) => `ssl:${h.ip}:${raftPort}`).sort(),
                `${v.host} ${db}: raft addresses`,
            );
        }
        assert.equal(views.filter((v) => v.status!.role === "leader").length, 1, `${db}: one leader`);
    }
});

test("the listeners are ssl only: a client with the CA's certificate is answered, a plain one is not", async () => {
    for (const h of cluster.hosts) {
        for (const [db, port] of [
            ["nb", 6641],
            ["sb", 6642],
        ] as const) {
            const tls = await sh(h.name, `ovsdb-client --timeout=10 ${CLIENT_SSL} list-dbs ssl:${ipOf(h.name)}:${port}`);
            assert.equal(tls.code, 0, `${h.name} ${db} over ssl: ${tls.stderr}`);
            assert.match(tls.out, new RegExp(`^${DBS[db]}$`, "m"));
            const plain = await sh(h.name, `ovsdb-client --timeout=3 list-dbs tcp:${ipOf(h.name)}:${port}`);
            assert.notEqual(plain.code, 0, `${h.name} ${db}: a plain tcp client was answered: ${plain.out}`);
        }
    }
});

test("every chassis is in the SB, connected over ssl to every member", async () => {
    const sbList = cluster.hosts.map((h) => `ssl:${h.ip}:6642`).join(",");
    for (const h of cluster.hosts) {
        const remote = await sh(h.name, "ovs-vsctl get Open_vSwitch . external_ids:ovn-remote");
        assert.equal(remote.out.replace(/"/g, ""), sbList, `${h.name}: ovn-remote`);
    }
    const deadline = Date.now() + 30_000;
    let chassis: string[] = [];
    do {
        const r = await sh(
            "node1",
            `ovn-sbctl --no-leader-only --timeout=20 ${CLIENT_SSL} --db=ssl:${ipOf("node1")}:6642 --bare --columns=hostname list Chassis`,
        );
        chassis = r.out.split("\n").filter(Boolean).sort();
        if (chassis.length === cluster.hosts.length) break;
        await new Promise((res) => setTimeout(res, 500));
    } while (Date.now() < deadline);
    assert.deepEqual(chassis, cluster.hosts.map((h) => h.name).sort());
});
