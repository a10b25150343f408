// Several centrals, pure parts: the model (every client lists every member, the single-central
// model untouched), the preview refusal of member changes, reading `_Server` and cluster/status,
// and the NB inputs' member list checked path by path.
import assert from "node:assert/strict";
import { test } from "node:test";
import { destroyGuardProvider } from "../../components/guard/destroyGuard";
import { membershipRefusal } from "../../components/hosts/centralMembership";
import { validateConfig } from "../../components/plan/validate";
import { buildClusterModel } from "../../components/model/clusterModel";
import { checkInputs } from "../../components/nb/resources/kindInputs";
import { clusterRouterKind } from "../../components/nb/kinds/clusterRouter";
import { isWritable, readServerDatabase } from "../../components/ovsdb/serverDatabase";
import { nbConnection } from "../../components/program/connections";
import { parseClusterStatus } from "../../components/status/clusterStatus";
import { devInputs } from "../nb/support/inputs";
import { stackConfig } from "../../lab/harness/configs";

function threeCentrals(protocol = "tcp") {
    const cfg = stackConfig("dev");
    for (const n of cfg.nodes.slice(1)) n.roles.push("central");
    cfg.ovnTransport = { protocol };
    if (protocol === "ssl") for (const k of ["ovnSslPrivateKey", "ovnSslCertificate", "ovnSslCaCertificate"]) cfg[k] = { secure: "v1:x" };
    return buildClusterModel(validateConfig(cfg));
}

test("three centrals: NB and SB addresses list every member, for chassis and ovnkube alike; raft ports default to 6643/6644", () => {
    const m = threeCentrals();
    assert.equal(m.nbAddress, "tcp:10.0.0.10:6641,tcp:10.0.0.11:6641,tcp:10.0.0.12:6641");
    assert.equal(m.sbAddress, "tcp:10.0.0.10:6642,tcp:10.0.0.11:6642,tcp:10.0.0.12:6642");
    assert.equal(m.kube.config.OvnNorth, m.nbAddress);
    assert.equal(m.kube.config.OvnSouth, m.sbAddress);
    assert.deepEqual(m.central!.cluster, {
        members: [
            { host: "kube-master", ip: "10.0.0.10" },
            { host: "kube-minion1", ip: "10.0.0.11" },
            { host: "kube-minion2", ip: "10.0.0.12" },
        ],
        protocol: "tcp",
        nbPort: 6641,
        sbPort: 6642,
        nbRaftPort: 6643,
        sbRaftPort: 6644,
    });
    for (const h of m.hosts) assert.ok(h.isCentral && h.packages.includes("ovn-central"), h.name);
    const centrals = m.hosts.filter((h) => h.isCentral);
    assert.deepEqual(
        nbConnection(centrals[0], { privateKey: "k" }, centrals).members?.map((x) => x.ssh.host),
        ["10.0.0.10", "10.0.0.11", "10.0.0.12"],
    );
});

test("one central: no cluster in the model and no members in the NB connection (single-central stacks stay as they were)", () => {
    const m = buildClusterModel(validateConfig(stackConfig("dev")));
    assert.equal(m.central!.cluster, undefined);
    assert.equal(m.nbAddress, "tcp:10.0.0.10:6641");
    const central = m.hosts.find((h) => h.isCentral)!;
    assert.deepEqual(Object.keys(nbConnection(central, { privateKeyConfig: "ovn-kubernetes:sshPrivateKey" })), [
        "ssh",
        "privateKeyConfig",
        "socket",
    ]);
});

test("member changes: the same members pass, a new cluster passes, anything else is refused naming before and after", () => {
    const c = threeCentrals().central!.cluster!;
    assert.equal(membershipRefusal(undefined, c), undefined);
    assert.equal(membershipRefusal(structuredClone(c), c), undefined);
    const grown = { ...c, members: [...c.members, { host: "n4", ip: "10.0.0.13" }, { host: "n5", ip: "10.0.0.14" }] };
    assert.match(membershipRefusal(c, grown)!, /cannot change in place: kube-master@10\.0\.0\.10, .* -> .*n5@10\.0\.0\.14/);
    assert.match(membershipRefusal(c, { ...c, members: [c.members[1], c.members[0], c.members[2]] })!, /cannot change in place/);
    assert.match(membershipRefusal(c, { ...c, nbRaftPort: 7643 })!, /raft 6643\/6644.* -> .*raft 7643\/6644/);
    assert.match(membershipRefusal(c, { ...c, protocol: "ssl" })!, /\(tcp, .*-> .*\(ssl, /);
});

test("going from several centrals to one is refused by the change guard's diff, naming both; growing and staying are not", async () => {
    const guard = (centrals: string[]) => ({
        owner: "o/s",
        groups: [],
        hosts: ["node1", "node2", "node3"].map((name) => ({
            name,
            ssh: { host: "10.0.0.1", port: 22, user: "root", insecureIgnoreHostKey: true },
        })),
        centrals,
        privateKey: "k",
    });
    await assert.rejects(
        destroyGuardProvider.diff!("o/s", guard(["node1", "node2", "node3"]), guard(["node1"])),
        /the clustered central \(node1, node2, node3\) cannot become a single central \(node1\) in place.*Destroy the stack's central/,
    );
    assert.deepEqual(await destroyGuardProvider.diff!("o/s", guard(["node1"]), guard(["node1", "node2", "node3"])), { changes: true });
    assert.deepEqual(await destroyGuardProvider.diff!("o/s", guard(["node1", "node2", "node3"]), guard(["node1", "node2", "node3"])), {
        changes: false,
    });
    // State from before the guard recorded its centrals: nothing to compare, recorded by the next up.
    const { centrals: _, ...old } = guard(["node1"]);
    assert.deepEqual(await destroyGuardProvider.diff!("o/s", old, guard(["node1"])), { changes: true });
});

test("_Server: the connected leader of a clustered database, or a standalone server, takes writes", () => {
    const rows = (row: Record<string, unknown>) => [{ rows: [row] }];
    const leader = readServerDatabase(rows({ model: "clustered", connected: true, leader: true, index: ["set", [42]] }));
    assert.deepEqual(leader, { model: "clustered", connected: true, leader: true, index: 42 });
    assert.equal(isWritable(leader), true);
    assert.equal(isWritable(readServerDatabase(rows({ model: "clustered", connected: true, leader: false, index: 9 }))), false);
    assert.equal(isWritable(readServerDatabase(rows({ model: "clustered", connected: false, leader: true, index: 9 }))), false);
    assert.equal(isWritable(readServerDatabase(rows({ model: "standalone", connected: true, leader: true, index: ["set", []] }))), true);
    assert.equal(readServerDatabase([{ rows: [] }]), undefined);
    assert.equal(isWritable(undefined), false);
});

// As ovsdb-server 3.1 (Debian 12) prints it; the follower's lines as a three-member cluster shows them.
const LEADER = `6bc7
Name: OVN_Northbound
Cluster ID: 894a (894aac9c-b98d-43fd-b952-f1e882cdf629)
Server ID: 6bc7 (6bc7b611-3507-4b17-b495-fcd0ef05d04b)
Address: tcp:127.0.0.1:16643
Status: cluster member
Role: leader
Term: 1
Leader: self
Vote: self

Last Election started 1030 ms ago, reason: timeout
Last Election won: 1030 ms ago
Election timer: 1000
Log: [2, 3]
Entries not yet committed: 0
Entries not yet applied: 0
Connections:
Disconnections: 0
Servers:
    6bc7 (6bc7 at tcp:127.0.0.1:16643) (self) next_index=2 match_index=2
`;

test("cluster/status: role, term, status, leader, connections and servers", () => {
    assert.deepEqual(parseClusterStatus(LEADER), {
        serverId: "6bc7",
        role: "leader",
        term: 1,
        status: "cluster member",
        leader: "self",
        connections: "",
        servers: [{ id: "6bc7", address: "tcp:127.0.0.1:16643", self: true }],
    });
    const follower = LEADER.replace("Role: leader", "Role: follower")
        .replace("Term: 1", "Term: 4")
        .replace("Leader: self", "Leader: 84a7")
        .replace("Connections:", "Connections: ->84a7 <-84a7 (->91c2)")
        .replace(
            /Servers:\n.*\n/,
            "Servers:\n    6bc7 (6bc7 at tcp:10.0.0.1:6643) (self)\n    84a7 (84a7 at tcp:10.0.0.2:6643) last msg 120 ms ago\n    91c2 (91c2 at tcp:10.0.0.3:6643)\n",
        );
    const s = parseClusterStatus(follower);
    assert.equal(s.role, "follower");
    assert.equal(s.term, 4);
    assert.equal(s.leader, "84a7");
    assert.equal(s.connections, "->84a7 <-84a7 (->91c2)");
    assert.deepEqual(
        s.servers.map((x) => [x.id, x.address, x.self]),
        [
            ["6bc7", "tcp:10.0.0.1:6643", true],
            ["84a7", "tcp:10.0.0.2:6643", false],
            ["91c2", "tcp:10.0.0.3:6643", false],
        ],
    );
});

test("NB inputs: each member is checked like the connection itself, naming its path", () => {
    const inputs = structuredClone(devInputs().router) as Record<string, any>;
    inputs.nb.members = [
        { ssh: inputs.nb.ssh, socket: inputs.nb.socket },
        { ssh: { ...inputs.nb.ssh, hostKey: "" }, socket: "/a/../b" },
    ];
    const failures = checkInputs(clusterRouterKind, inputs).failures.map((f) => f.property);
    assert.deepEqual(failures.sort(), ["nb.members[1].socket", "nb.members[1].ssh.hostKey"]);
    inputs.nb.members = [inputs.nb.members[0]];
    assert.deepEqual(
        checkInputs(clusterRouterKind, inputs).failures.map((f) => f.property),
        ["nb.members"],
    );
});
