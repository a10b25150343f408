// What the guards record of their hosts and ovnkube nodes: the shared SSH settings once, per host
// its address and pinned key, an NB connection by the host it is on. Expanding a record gives the
// scope back exactly; a record of the previous version (full targets) reads as it is, and moving
// it to the new record is an update of the guard, never a replacement. Pure.
import assert from "node:assert/strict";
import { test } from "node:test";
import fc from "fast-check";
import { destroyGuardProvider } from "../../components/guard/destroyGuard";
import { expandRecord, recordHosts, recordOvnkubeNodes, sharedSsh } from "../../components/guard/record";
import { NB_SOCKET } from "../../components/ssh/ovsdbChannel";
import type { GuardedHost, OvnkubeNodeRecord } from "../../components/guard/blockers";

const KEY_CONFIG = "ovn-kubernetes:sshPrivateKey";
const hostKey = (i: number) => `ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI${String(i).padStart(43, "x")} node${i}`;
const target = (i: number, over: Record<string, unknown> = {}) => ({
    host: `10.0.${i >> 8}.${i & 255}`,
    port: 22,
    user: "root",
    hostKey: hostKey(i),
    insecureIgnoreHostKey: false,
    ...over,
});

const record = (hosts: GuardedHost[], nodes: OvnkubeNodeRecord[] | undefined, privateKeyConfig = KEY_CONFIG) => {
    const shared = sharedSsh(hosts);
    return {
        owner: "o/s",
        groups: [],
        centrals: [],
        ...(shared ? { sshShared: shared } : {}),
        hosts: recordHosts(hosts, shared),
        ...(nodes ? { ovnkubeNodes: recordOvnkubeNodes(nodes, hosts, shared, privateKeyConfig) } : {}),
        privateKeyConfig,
    };
};

test("an expanded record is the scope it was made of: hosts with other ports, users or no pin, NBs on listed hosts or elsewhere, clustered or not", () => {
    const ssh = fc.record({
        port: fc.constantFrom(22, 2222),
        user: fc.constantFrom("root", "admin"),
        pinned: fc.boolean(),
    });
    fc.assert(
        fc.property(
            fc.array(ssh, { minLength: 1, maxLength: 6 }),
            fc.array(
                fc.record({
                    on: fc.nat(7),
                    socket: fc.constantFrom(NB_SOCKET, "tcp:10.9.0.1:6641"),
                    ownKey: fc.boolean(),
                    members: fc.boolean(),
                }),
                { maxLength: 6 },
            ),
            (given, nodeSpecs) => {
                const hosts: GuardedHost[] = given.map((s, i) => ({
                    name: `node${i}`,
                    roles: ["node"],
                    ssh: s.pinned
                        ? target(i, { port: s.port, user: s.user })
                        : { host: `10.0.0.${i}`, port: s.port, user: s.user, insecureIgnoreHostKey: true },
                }));
                // An index past the hosts: an NB on a host the guard does not list.
                const sshAt = (i: number) => hosts[i]?.ssh ?? target(100 + i);
                const nodes: OvnkubeNodeRecord[] = nodeSpecs.map((n, i) => ({
                    name: `k${i}`,
                    nb: {
                        ssh: sshAt(n.on),
                        socket: n.socket,
                        privateKeyConfig: n.ownKey ? "other:sshKey" : KEY_CONFIG,
                        ...(n.members ? { members: [0, 1, 7].map((m) => ({ ssh: sshAt(m), socket: NB_SOCKET })) } : {}),
                    },
                }));
                const expanded = expandRecord(record(hosts, nodes));
                assert.deepEqual(expanded.hosts, hosts);
                assert.deepEqual(expanded.ovnkubeNodes, nodes);
            },
        ),
    );
});

test("the record keeps each host's target once: the shared settings once, an NB on a host by its name", () => {
    const hosts = Array.from({ length: 100 }, (_, i) => ({ name: `node${i}`, roles: ["node"], ssh: target(i) }));
    const nodes = hosts.map((h) => ({ name: h.name, nb: { ssh: h.ssh, socket: NB_SOCKET, privateKeyConfig: KEY_CONFIG } }));
    const r = record(hosts, nodes);
    const text = JSON.stringify(r);
    for (const h of hosts) assert.equal(text.split(h.ssh.hostKey).length - 1, 1, `${h.name}'s key once`);
    assert.deepEqual(r.sshShared, { port: 22, user: "root", insecureIgnoreHostKey: false });
    assert.deepEqual(r.hosts[7], { name: "node7", roles: ["node"], ssh: { host: "10.0.0.7", hostKey: hostKey(7) } });
    assert.deepEqual(r.ovnkubeNodes![7], { name: "node7", nb: { on: "node7" } });
    const full = JSON.stringify({ hosts, ovnkubeNodes: nodes });
    assert.ok(text.length < full.length / 2.5, `${text.length} bytes against ${full.length}`);
});

test("a record of the previous version (full targets, no shared settings) reads as it is", () => {
    const hosts = [0, 1].map((i) => ({ name: `node${i}`, ssh: target(i) }));
    const nodes = hosts.map((h) => ({ name: h.name, nb: { ssh: h.ssh, socket: NB_SOCKET, privateKeyConfig: KEY_CONFIG } }));
    const previous = { owner: "o/s", groups: [], centrals: [], hosts, ovnkubeNodes: nodes, privateKey: "k" };
    const expanded = expandRecord(previous);
    assert.deepEqual(expanded.hosts, hosts);
    assert.deepEqual(expanded.ovnkubeNodes, nodes);
});

test("the guard's diff from a previous version's record to the new one is a change without replacement; the same record again is none", async () => {
    const hosts = [0, 1, 2].map((i) => ({ name: `node${i}`, roles: ["node"], ssh: target(i) }));
    const nodes = hosts.map((h) => ({ name: h.name, nb: { ssh: h.ssh, socket: NB_SOCKET, privateKeyConfig: KEY_CONFIG } }));
    const previous = { owner: "o/s", groups: [], centrals: [], hosts, ovnkubeNodes: nodes, privateKey: "k" };
    assert.deepEqual(await destroyGuardProvider.diff!("o/s", previous, record(hosts, nodes)), { changes: true });
    assert.deepEqual(await destroyGuardProvider.diff!("o/s", record(hosts, nodes), record(hosts, nodes)), { changes: false });
    // A host renamed in place is still refused when one side is the previous version's record.
    const renamed = [...hosts.slice(0, 2), { ...hosts[2], name: "node9" }];
    await assert.rejects(
        destroyGuardProvider.diff!("o/s", previous, record(renamed, undefined)),
        /node "node2" \(10\.0\.0\.2:22\) is renamed "node9"/,
    );
});
