import assert from "node:assert/strict";
import { test } from "node:test";
import { planAddresses } from "../../components/model/addressPlan";
import { addressRange, cidrsOverlap, contains, overlaps, parseNetwork } from "../../components/values";

const names = (n: number, prefix = "node") => Array.from({ length: n }, (_, i) => `${prefix}-${i}`);

function plan(nodes: Array<{ name: string; subnet?: string }>, gateways: string[] = []) {
    return planAddresses({
        families: [{ clusterSubnet: "10.128.0.0/14", hostSubnetLength: 24, joinSubnet: "100.64.0.0/16" }],
        nodes: nodes.map((n) => ({ name: n.name, ...(n.subnet ? { subnets: [n.subnet] } : {}) })),
        gateways,
    });
}

const DUAL = [
    { clusterSubnet: "10.128.0.0/14", hostSubnetLength: 24, joinSubnet: "100.64.0.0/16" },
    { clusterSubnet: "fd00:10:128::/48", hostSubnetLength: 64, joinSubnet: "fd98::/64" },
];

test("node subnets lie inside the cluster subnet, never overlap, and have the host length", () => {
    const p = plan(names(200).map((name) => ({ name })));
    const cluster = parseNetwork("10.128.0.0/14");
    const subnets = Object.values(p.subnets).map(parseNetwork);
    assert.equal(subnets.length, 200);
    for (const s of subnets) {
        assert.ok(contains(cluster, s), s.text);
        assert.equal(s.prefix, 24);
    }
    for (let i = 0; i < subnets.length; i++)
        for (let j = i + 1; j < subnets.length; j++) assert.ok(!overlaps(subnets[i], subnets[j]), `${subnets[i].text} ${subnets[j].text}`);
});

test("the same config always gives the same plan, whatever the node order of other runs", () => {
    const nodes = names(50).map((name) => ({ name }));
    assert.deepEqual(plan(nodes), plan(structuredClone(nodes)));
});

test("stability: removing one node and adding another moves no other node's subnet or join address", () => {
    const before = names(40);
    const gateways = ["node-3", "node-7", "node-11"];
    const p1 = plan(
        before.map((name) => ({ name })),
        gateways,
    );
    const after = [...before.filter((n) => n !== "node-20"), "node-new"];
    const p2 = plan(
        after.map((name) => ({ name })),
        [...gateways.filter((g) => g !== "node-7"), "node-new"],
    );
    const displacedBy20 = new Set(p1.displaced.filter((d) => d.by === "node-20").map((d) => d.node));
    let compared = 0;
    for (const n of before) {
        if (n === "node-20" || displacedBy20.has(n)) continue;
        assert.equal(p2.subnets[n], p1.subnets[n], `subnet of ${n} moved`);
        compared++;
    }
    assert.ok(compared >= 38);
    for (const g of ["node-3", "node-11"]) assert.equal(p2.gatewayJoinIps[g], p1.gatewayJoinIps[g], `join address of ${g} moved`);
    assert.notEqual(p2.subnets["node-new"], undefined);
    assert.ok(!Object.entries(p2.subnets).some(([n, s]) => n !== "node-new" && s === p2.subnets["node-new"]));
});

test("appending nodes never moves an existing node, even through hash collisions", () => {
    // 60 nodes into 64 places: collisions are certain, so this exercises the tie-break.
    const small = (ns: string[]) =>
        planAddresses({
            families: [{ clusterSubnet: "10.0.0.0/18", hostSubnetLength: 24, joinSubnet: "100.64.0.0/16" }],
            nodes: ns.map((name) => ({ name })),
            gateways: [],
        });
    const p1 = small(names(40));
    const p2 = small(names(60));
    assert.ok(p2.displaced.length > 0, "expected collisions in a nearly full cluster subnet");
    for (const n of names(40)) assert.equal(p2.subnets[n], p1.subnets[n], n);
});

test("pinned subnets are kept and never handed to another node", () => {
    const p = plan([{ name: "a", subnet: "10.128.5.0/24" }, ...names(100).map((name) => ({ name }))]);
    assert.equal(p.subnets.a, "10.128.5.0/24");
    assert.equal(Object.values(p.subnets).filter((s) => s === "10.128.5.0/24").length, 1);
});

test("join addresses: cluster router takes .1, gateways distinct addresses, never network or broadcast", () => {
    const gws = names(30, "gw");
    const p = planAddresses({
        families: [{ clusterSubnet: "10.128.0.0/14", hostSubnetLength: 24, joinSubnet: "100.64.0.0/24" }],
        nodes: [],
        gateways: gws,
    });
    assert.equal(p.clusterRouterJoinIp, "100.64.0.1");
    const ips = gws.map((g) => p.gatewayJoinIps[g]);
    assert.equal(new Set(ips).size, 30);
    for (const ip of ips) assert.ok(!["100.64.0.0", "100.64.0.1", "100.64.0.255"].includes(ip), ip);
});

test("a full cluster subnet is an error naming the node", () => {
    assert.throws(
        () =>
            planAddresses({
                families: [{ clusterSubnet: "10.0.0.0/23", hostSubnetLength: 24, joinSubnet: "100.64.0.0/16" }],
                nodes: names(3).map((name) => ({ name })),
                gateways: [],
            }),
        /no free node subnet left for node "node-2"/,
    );
});

test("cidrsOverlap ignores host bits and compares whole networks", () => {
    assert.equal(cidrsOverlap("10.128.0.0/14", "10.129.3.0/24"), true);
    assert.equal(cidrsOverlap("10.128.0.0/14", "10.132.0.0/24"), false);
    assert.equal(cidrsOverlap("172.30.0.0/16", "172.31.12.0/24"), false);
    assert.equal(cidrsOverlap("192.168.1.77/24", "192.168.1.200/32"), true);
    assert.equal(addressRange("127.0.0.1"), "loopback");
});

test("dual stack: a node subnet of each family inside that family's cluster subnet, none overlapping, stable by name", () => {
    const nodes = names(120).map((name) => ({ name }));
    const p = planAddresses({ families: DUAL, nodes, gateways: names(120) });
    assert.deepEqual(
        p.families.map((f) => f.family),
        ["ipv4", "ipv6"],
    );
    for (const [k, f] of p.families.entries()) {
        const cluster = parseNetwork(DUAL[k].clusterSubnet);
        const subnets = Object.values(f.subnets).map(parseNetwork);
        assert.equal(new Set(subnets.map((s) => s.text)).size, 120);
        for (const s of subnets) assert.ok(contains(cluster, s) && s.prefix === DUAL[k].hostSubnetLength, s.text);
    }
    // The primary family's plan is the one at the top, as Pulumi mode and single stack read it.
    assert.deepEqual(p.subnets, p.families[0].subnets);
    // Reversed node order: the same plan (by name, never by position).
    const r = planAddresses({ families: DUAL, nodes: [...nodes].reverse(), gateways: names(120).reverse() });
    for (const n of names(120)) {
        if (p.displaced.some((d) => d.node === n) || r.displaced.some((d) => d.node === n)) continue;
        assert.deepEqual(
            r.families.map((f) => f.subnets[n]),
            p.families.map((f) => f.subnets[n]),
            n,
        );
    }
});

test("dual stack: one join offset (ovnkube's node-id) per node, the same in both families", () => {
    const p = planAddresses({ families: DUAL, nodes: names(50).map((name) => ({ name })), gateways: names(50) });
    const [v4, v6] = p.families;
    assert.equal(v4.clusterRouterJoinIp, "100.64.0.1");
    assert.equal(v6.clusterRouterJoinIp, "fd98::1");
    for (const n of names(50)) {
        const id = p.joinOffsets[n];
        assert.equal(v4.gatewayJoinIps[n], `100.64.${id >> 8}.${id & 255}`, n);
        assert.equal(v6.gatewayJoinIps[n], `fd98::${id.toString(16)}`, n);
    }
});

test("dual stack: a pinned pair is kept in both families and never handed to another node", () => {
    const p = planAddresses({
        families: DUAL,
        nodes: [{ name: "a", subnets: ["10.128.5.0/24", "fd00:10:128:5::/64"] }, ...names(60).map((name) => ({ name }))],
        gateways: [],
    });
    assert.deepEqual(
        p.families.map((f) => f.subnets.a),
        ["10.128.5.0/24", "fd00:10:128:5::/64"],
    );
    for (const f of p.families) assert.equal(Object.values(f.subnets).filter((s) => s === f.subnets.a).length, 1);
});

test("IPv6 only: node subnets and join addresses in IPv6, the plan's top level IPv6", () => {
    const p = planAddresses({ families: [DUAL[1]], nodes: names(5).map((name) => ({ name })), gateways: names(5) });
    assert.equal(p.family, "ipv6");
    for (const s of Object.values(p.subnets)) assert.match(s, /^fd00:10:128:[0-9a-f]{1,4}::\/64$/);
    assert.equal(p.clusterRouterJoinIp, "fd98::1");
});
