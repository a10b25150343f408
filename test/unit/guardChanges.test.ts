// What a change to the guards' inputs removes, and which removals are renames in place. Pure.
import assert from "node:assert/strict";
import { test } from "node:test";
import { ovnkubeNodeRows, ovnkubeNodesRemovedBy, removedBy } from "../../components/guard/blockers";
import { hostRenames, renameRefusal } from "../../components/guard/renames";

const host = (name: string, host: string, port = 22) => ({ name, ssh: { host, port, user: "root", insecureIgnoreHostKey: false } });
const group = (node: string) => ({ type: "NodeSwitch", group: `node/${node}` });
const router = { type: "ClusterRouter", group: "cluster-router" };

test("removedBy: the groups and hosts the new inputs no longer list; a destroy removes everything", () => {
    const olds = { groups: [router, group("node1"), group("node2")], hosts: [host("node1", "10.0.0.1"), host("node2", "10.0.0.2")] };
    assert.deepEqual(removedBy(olds, { groups: [router, group("node1")], hosts: [host("node1", "10.0.0.1")] }), {
        groups: [group("node2")],
        hosts: [host("node2", "10.0.0.2")],
    });
    assert.deepEqual(removedBy(olds, { groups: [...olds.groups, group("node3")], hosts: [...olds.hosts, host("node3", "10.0.0.3")] }), {
        groups: [],
        hosts: [],
    });
    assert.deepEqual(removedBy(olds, { groups: [], hosts: [] }), olds);
});

test("ovnkubeNodesRemovedBy: the nodes that leave, seen from the NB of a node that stays; nothing to look at on a destroy", () => {
    const nb = (host: string) => ({
        ssh: { host, port: 22, user: "root", insecureIgnoreHostKey: false },
        socket: "unix:/var/run/ovn/ovnnb_db.sock",
    });
    const zones = ["node1", "node2", "node3"].map((name, i) => ({ name, nb: nb(`10.0.0.${i + 1}`) }));
    // Interconnect: node3 leaves and node4 arrives; node3's transit port is looked for in node1's zone, which stays.
    const added = { name: "node4", nb: nb("10.0.0.4") };
    assert.deepEqual(ovnkubeNodesRemovedBy({ ovnkubeNodes: zones }, { ovnkubeNodes: [added, zones[0], zones[1]] }), {
        names: ["node3"],
        seenFrom: zones[0].nb,
    });
    assert.deepEqual(ovnkubeNodesRemovedBy({ ovnkubeNodes: zones }, { ovnkubeNodes: [...zones, added] }), { names: [] });
    assert.deepEqual(ovnkubeNodesRemovedBy({ ovnkubeNodes: zones }, { ovnkubeNodes: [] }), { names: [] });
    // Pulumi mode, and state written before the guards recorded ovnkube's nodes.
    assert.deepEqual(ovnkubeNodesRemovedBy({}, { ovnkubeNodes: zones }), { names: [] });
    assert.deepEqual(ovnkubeNodeRows("node3"), [
        { table: "Logical_Switch", name: "node3" },
        { table: "Logical_Switch_Port", name: "tstor-node3" },
    ]);
});

test("hostRenames: a dropped host listed under another name at the same address and port; not a removal next to an addition elsewhere", () => {
    const olds = [host("node1", "10.0.0.1"), host("node2", "10.0.0.2"), host("node3", "203.0.113.7", 2203)];
    assert.deepEqual(hostRenames(olds, [host("node1", "10.0.0.1"), host("node2b", "10.0.0.2"), host("node3", "203.0.113.7", 2203)]), [
        { from: "node2", to: "node2b", endpoint: "10.0.0.2:22" },
    ]);
    // Another machine behind the same NAT address: another port, not a rename.
    assert.deepEqual(hostRenames(olds, [host("node1", "10.0.0.1"), host("node2", "10.0.0.2"), host("node4", "203.0.113.7", 2204)]), []);
    assert.deepEqual(hostRenames(olds, [host("node1", "10.0.0.1"), host("node4", "10.0.0.4")]), []);
    const text = renameRefusal([{ from: "node2", to: "node2b", endpoint: "10.0.0.2:22" }]);
    assert.match(
        text,
        /^renaming stopped before anything was changed:\n {2}- node "node2" \(10\.0\.0\.2:22\) is renamed "node2b": that replaces the node/,
    );
    assert.match(text, /To rename: remove "node2" from the stack and run up \(drain it first\), then add "node2b" and run up again$/);
});
