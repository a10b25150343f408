// The encap type of a running cluster is fixed: a stack asking for another one is refused, naming
// the nodes registered with which type and why; a new cluster, or nodes not registered yet, pass.
import assert from "node:assert/strict";
import { test } from "node:test";
import { parseEncaps, tunnelTypeRefusal } from "../../components/compat/tunnelType";

const IPS = { node1: "10.0.0.11", node2: "10.0.0.12", node3: "10.0.0.13" };
const sb = JSON.stringify({
    data: [
        ["10.0.0.11", "geneve"],
        ["10.0.0.12", "geneve"],
    ],
    headings: ["ip", "type"],
});

test("parses ovn-sbctl's JSON listing, and nothing when the Southbound is not running", () => {
    assert.deepEqual(parseEncaps(sb), [
        { ip: "10.0.0.11", type: "geneve" },
        { ip: "10.0.0.12", type: "geneve" },
    ]);
    assert.deepEqual(parseEncaps(""), []);
});

test("the registered type, or no registration at all, passes", () => {
    assert.equal(tunnelTypeRefusal("geneve", IPS, parseEncaps(sb)), undefined);
    assert.equal(tunnelTypeRefusal("vxlan", IPS, []), undefined);
    // A chassis registered with several types may keep any of them.
    assert.equal(
        tunnelTypeRefusal("vxlan", IPS, [
            { ip: "10.0.0.11", type: "geneve" },
            { ip: "10.0.0.11", type: "vxlan" },
        ]),
        undefined,
    );
});

test("geneve → vxlan on a running cluster is refused naming the nodes, the reason and the way out", () => {
    const why = tunnelTypeRefusal("vxlan", IPS, parseEncaps(sb))!;
    assert.match(
        why,
        /^vxlan cannot replace geneve on a running cluster: node1 \(geneve\), node2 \(geneve\) are registered with geneve tunnels/,
    );
    assert.match(why, /only between chassis that share an encap type/);
    assert.match(why, /4096 logical switches and routers and 2048 ports per switch/);
    assert.match(why, /destroy the cluster and create it again with vxlan/);
    assert.doesNotMatch(tunnelTypeRefusal("geneve", IPS, [{ ip: "10.0.0.13", type: "vxlan" }])!, /4096/);
});
