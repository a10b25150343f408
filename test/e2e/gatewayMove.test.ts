// Moving the gateway on a live cluster (Pulumi mode, 4 Debian 13 hosts with their own roots), under
// traffic: pods on node1 and node2, which no step touches, ping each other every 50 ms through
// every `up`, and the cluster router's default routes are sampled every 250 ms. The shared gateway
// moves from node4 to node3 (SNAT follows; node4 keeps its NIC on its tunnel bridge as any other
// node), node4 is added back as a second gateway (ECMP), then node3's gateway is removed: node3's
// NIC, addresses (IPv4 and IPv6), routes, OVS ports, flows and boot pieces are exactly what they
// were before it was ever a gateway. Then node4, the gateway again, reboots with no program run
// (./support/gatewayReboot.ts); last, node2 reboots in the middle of an up (./support/rebootMidUp.ts). Pulumi mode, because there the project writes the gateway routers
// and the cluster router's ECMP routes itself; in ovnkube mode every node is a gateway and ovnkube
// moves nothing.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import {
    bringUpGatewayLab,
    changeGateways,
    defaultRoutes,
    nbGateways,
    routesValid,
    sbGateways,
    type GatewayLab,
} from "../../lab/scenarios/gatewayChange";
import { nicSnapshot, snatSeen, type ChangeOutcome } from "../../lab/scenarios/liveChange";
import type { DefaultRoutes } from "../../lab/scenarios/gatewayChange";
import { gatewayRebootChecks } from "./support/gatewayReboot";
import { rebootMidUpCheck } from "./support/rebootMidUp";

const ID = "lbgw";
let lab: GatewayLab;
let node3Before: Record<string, string[]>;
let chassisBefore: string[];

const ipOf = (node: string) => lab.cluster.hosts.find((h) => h.name === node)!.ip;
const joinOf = (node: string) => lab.model.gateways.find((g) => g.node === node)!.join.ip;
const op = (o: ChangeOutcome<DefaultRoutes>) => o.result.ops.filter((x) => x.op !== "same").map((x) => `${x.op} ${x.name}`);

/** The outcome of an up under traffic: it succeeded, no untouched probe was lost, every default-route sample was valid. */
function assertClean(o: ChangeOutcome<DefaultRoutes>, t: { diagnostic(s: string): void }) {
    assert.equal(o.result.ok, true, o.result.error);
    t.diagnostic(
        `up ${o.seconds.toFixed(1)} s; untouched pairs ${o.traffic.map((x) => `${x.lost}/${x.sent}`).join(", ")} lost; ${o.samples.length} route samples`,
    );
    for (const x of o.traffic) {
        assert.ok(x.sent > 20, `only ${x.sent} probes sent`);
        assert.equal(x.lost, 0, `${x.lost} of ${x.sent} probes between untouched pods lost`);
    }
    assert.ok(o.samples.length >= 3, `${o.samples.length} samples`);
    const bad = o.samples.filter((s) => !routesValid(s));
    assert.deepEqual(bad, [], "a default-route sample without a valid next hop");
}

/** SNAT from pod-a as seen outside, once it has settled (bounded), then `probes` single tries that must all see `node`. */
async function assertSnatVia(node: string, probes = 4) {
    const deadline = Date.now() + 30_000;
    let seen = await snatSeen(lab.cluster, lab.pods[0]);
    while (seen !== ipOf(node) && Date.now() < deadline) seen = await snatSeen(lab.cluster, lab.pods[0]);
    assert.equal(seen, ipOf(node), "SNAT source after settling");
    for (let i = 0; i < probes; i++) assert.equal(await snatSeen(lab.cluster, lab.pods[0]), ipOf(node), `SNAT probe ${i + 1}`);
}

before(async () => {
    lab = await bringUpGatewayLab(ID);
});
after(async () => {
    await lab?.close();
});

test("start: node4 is the gateway, SNAT via node4; node3's NIC sits on its tunnel bridge", async () => {
    assert.deepEqual(await nbGateways(lab), [`GR_node4 ${ipOf("node4")} ${lab.model.clusterSubnets[0]}`]);
    assert.deepEqual((await defaultRoutes(lab)).nexthops, [joinOf("node4")]);
    const sb = await sbGateways(lab);
    chassisBefore = sb.chassis;
    assert.equal(chassisBefore.length, 4);
    assert.ok(
        Object.keys(sb.l3gateway).length > 0 && Object.keys(sb.l3gateway).every((p) => p.includes("GR_node4")),
        JSON.stringify(sb.l3gateway),
    );
    await assertSnatVia("node4");
    node3Before = await nicSnapshot(lab.cluster, "node3");
    assert.ok(node3Before.addresses.includes("breth0 inet6 2001:db8:3::13/64"), node3Before.addresses.join("\n"));
});

test("move the gateway node4 → node3: SNAT follows, node4 keeps a plain tunnel bridge, untouched pods lose nothing", async (t) => {
    const o = await changeGateways(lab, ["node3"]);
    assertClean(o, t);
    t.diagnostic(op(o).join("; "));
    assert.deepEqual(await nbGateways(lab), [`GR_node3 ${ipOf("node3")} ${lab.model.clusterSubnets[0]}`]);
    assert.deepEqual((await defaultRoutes(lab)).nexthops, [joinOf("node3")]);
    const sb = await sbGateways(lab);
    assert.deepEqual(sb.chassis, chassisBefore, "no chassis added or lost");
    assert.deepEqual(
        Object.keys(sb.l3gateway).filter((p) => p.includes("GR_node4")),
        [],
        "no stale port binding of GR_node4",
    );
    assert.ok(
        Object.keys(sb.l3gateway).some((p) => p.includes("GR_node3")),
        "GR_node3 bound as an l3gateway",
    );
    await assertSnatVia("node3");
    const node4 = await nicSnapshot(lab.cluster, "node4");
    assert.deepEqual(node4.flows, node3Before.flows, "node4's bridge forwards NORMAL like any tunnel bridge");
    assert.deepEqual(node4.bridgeMappings, node3Before.bridgeMappings);
    assert.deepEqual(node4.nftables, node3Before.nftables);
    assert.deepEqual(
        node4.ovsPorts.filter((p) => p.startsWith("breth0 ")),
        ["breth0 eth0"],
    );
    assert.ok(
        node4.addresses.includes(`breth0 inet ${ipOf("node4")}/${lab.cluster.prefixLen}`) ||
            node4.addresses.some((a) => a.startsWith(`breth0 inet ${ipOf("node4")}/`)),
        node4.addresses.join("\n"),
    );
    assert.ok(node4.addresses.includes("breth0 inet6 2001:db8:3::14/64"), node4.addresses.join("\n"));
    assert.deepEqual(
        node4.addresses.filter((a) => a.startsWith("eth0 ") && !a.includes(" fe80::")),
        [],
        "no global address left on eth0",
    );
    assert.ok(!node4.pieces.some((l) => l.includes("flows-")), "no flows piece left on node4");
});

test("add node4 back as a second gateway: the default route becomes ECMP over both, valid throughout", async (t) => {
    const o = await changeGateways(lab, ["node3", "node4"]);
    assertClean(o, t);
    assert.deepEqual((await defaultRoutes(lab)).nexthops, [joinOf("node3"), joinOf("node4")].sort());
    assert.deepEqual(await nbGateways(lab), [
        `GR_node3 ${ipOf("node3")} ${lab.model.clusterSubnets[0]}`,
        `GR_node4 ${ipOf("node4")} ${lab.model.clusterSubnets[0]}`,
    ]);
    const sb = await sbGateways(lab);
    assert.deepEqual(sb.chassis, chassisBefore);
    assert.ok(
        Object.keys(sb.l3gateway).some((p) => p.includes("GR_node4")),
        "GR_node4 bound again",
    );
});

test("remove node3's gateway: ECMP valid throughout, SNAT via node4, node3's NIC exactly as before it was a gateway", async (t) => {
    const o = await changeGateways(lab, ["node4"]);
    assertClean(o, t);
    assert.deepEqual((await defaultRoutes(lab)).nexthops, [joinOf("node4")]);
    assert.deepEqual(await nbGateways(lab), [`GR_node4 ${ipOf("node4")} ${lab.model.clusterSubnets[0]}`]);
    const sb = await sbGateways(lab);
    assert.deepEqual(sb.chassis, chassisBefore);
    assert.deepEqual(
        Object.keys(sb.l3gateway).filter((p) => p.includes("GR_node3")),
        [],
        "no stale port binding of GR_node3",
    );
    await assertSnatVia("node4");
    assert.deepEqual(await nicSnapshot(lab.cluster, "node3"), node3Before);
});

gatewayRebootChecks(() => lab, "node4");
rebootMidUpCheck(() => lab, "node2", 1);
