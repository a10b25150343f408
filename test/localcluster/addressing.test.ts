import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { test } from "node:test";
import { controlPlaneAddress, defaultSubnet, planAddresses, spareAddress } from "../../lab/localcluster/addressing";
import { checkId, clusterNames } from "../../lab/localcluster/names";

test("the default underlay is a /24 in 172.31.0.0/16 that depends only on the id", () => {
    assert.equal(defaultSubnet("local"), defaultSubnet("local"));
    assert.match(defaultSubnet("local"), /^172\.31\.([1-9]|[1-9]\d|1\d\d|2[0-4]\d|25[0-4])\.0\/24$/);
    const seen = new Set(["a", "b", "c", "d", "e", "f"].map(defaultSubnet));
    assert.ok(seen.size > 1, "different ids spread over different subnets");
});

/** The lab ids the test files name: `const ID = "…"`, or the id given to a lab helper directly. */
function testLabIds(dir = path.join(__dirname, "..")): Map<string, string> {
    const ids = new Map<string, string>();
    for (const entry of fs.readdirSync(dir, { recursive: true, encoding: "utf8" }).filter((f) => f.endsWith(".ts"))) {
        const text = fs.readFileSync(path.join(dir, entry), "utf8");
        for (const m of text.matchAll(
            /(?:const ID = |familyLabForFile\(|bringUpLiveLab\(|bringUpPulumiLab\(|haLab\()"([a-z][a-z0-9]{0,7})"/g,
        ))
            ids.set(m[1], entry);
    }
    return ids;
}

test("the test files' labs each have their own default underlay: two running at once never share a /24 on this machine", () => {
    const ids = testLabIds();
    assert.ok(ids.size > 30, `${ids.size} lab ids found`);
    const bySubnet = new Map<string, string[]>();
    for (const [id, file] of ids) bySubnet.set(defaultSubnet(id), [...(bySubnet.get(defaultSubnet(id)) ?? []), `${id} (${file})`]);
    assert.deepEqual(
        [...bySubnet].filter(([, users]) => users.length > 1),
        [],
    );
});

test("the address plan puts the gateway first, hosts from .11 and the operator last", () => {
    const plan = planAddresses("172.31.5.0/24", 3);
    assert.deepEqual(plan, {
        subnet: "172.31.5.0/24",
        prefixLen: 24,
        external: "172.31.5.1",
        operator: "172.31.5.254",
        hosts: ["172.31.5.11", "172.31.5.12", "172.31.5.13"],
    });
    assert.equal(planAddresses("10.9.0.0/16", 1).operator, "10.9.255.254");
    assert.throws(() => planAddresses("172.31.5.0/28", 4), /room for 3 hosts/);
    assert.throws(() => planAddresses("172.31.5.1/24", 1), /not a network address/);
    assert.throws(() => planAddresses("10.0.0.0/8", 1), /between 16 and 28/);
    assert.throws(() => planAddresses("fd00::/64", 1), /not an IPv4 CIDR/);
});

test("spare addresses lie between the control plane's and the first host's", () => {
    assert.equal(controlPlaneAddress("172.31.5.0/24"), "172.31.5.2");
    assert.equal(spareAddress("172.31.5.0/24", 1), "172.31.5.3");
    assert.equal(spareAddress("172.31.5.0/24", 8), "172.31.5.10");
    const plan = planAddresses("172.31.5.0/24", 3);
    const taken = [plan.external, controlPlaneAddress(plan.subnet), plan.operator, ...plan.hosts];
    for (let n = 1; n <= 8; n++) assert.ok(!taken.includes(spareAddress(plan.subnet, n)));
    for (const bad of [0, 9, 1.5]) assert.throws(() => spareAddress("172.31.5.0/24", bad), /the underlay keeps 8, numbered from 1/);
});

test("ids are short and dash-free, and every interface name fits Linux's 15 characters", () => {
    for (const bad of ["", "A", "1a", "a-b", "abcdefghi", "a b", "a;rm"]) assert.throws(() => checkId(bad), /invalid local cluster id/);
    const n = clusterNames("abcdefgh");
    for (const name of [n.bridge, n.externalVeth, n.hostVeth(63)]) assert.ok(name.length <= 15, name);
    assert.equal(n.hostNetns("node1"), "lc-abcdefgh-node1");
    assert.ok(n.podNetns("node1", "default", "web").startsWith(n.prefix));
    // One id's prefix never matches another id's names.
    assert.equal(clusterNames("ab").hostNetns("node1").startsWith(clusterNames("a").prefix), false);
});
