// Topology pictures: for the dev stack and generated 50-node stacks the SVG is well-formed,
// rsvg-convert draws it, and it names every node; beyond the threshold nodes are collapsed into
// groups; a live reading marks exactly the boxes and node lines that differ from the plan.
import assert from "node:assert/strict";
import { test } from "node:test";
import type { ClusterModel } from "../../components/model/types";
import { NO_ROW } from "../../components/nb/expectation";
import { plannedNbRows } from "../../components/status/plannedRows";
import type { NbDifferences } from "../../components/status/topologyStatus";
import { liveTopologySvg, plannedTopologySvg } from "../../cli/pictures";
import { exampleDifferences, LARGE, largeInterconnectStack, largePulumiStack, modelOf, stackFile } from "../../cli/pictures/examples";
import { COLLAPSE_ABOVE, GROUP_SIZE } from "../../cli/pictures/planned";
import { checkSvg } from "../support/svgCheck";

const ORANGE = "#e8710a";
const RED = "#d93025";
const nodeNames = (model: ClusterModel) => model.nodeNetworks.map((n) => n.node);
/** The texts naming a node: its switch's title, or its line in a collapsed group. */
const naming = (texts: string[], node: string) => texts.filter((t) => t === node || t.startsWith(`${node} `));

test("dev stack: well-formed, drawn by rsvg-convert, every node with its switch and subnet, the gateway with its SNAT address and external network", async () => {
    const model = modelOf(stackFile("dev"));
    const { texts, boxes } = checkSvg(await plannedTopologySvg(model, "dev"));
    for (const n of model.nodeNetworks) {
        assert.equal(boxes.get(n.node), "box switch", n.node);
        assert.ok(texts.includes(n.subnet), `${n.node}'s subnet ${n.subnet}`);
    }
    assert.equal(boxes.get("ovn_cluster_router"), "box router");
    assert.equal(boxes.get("join"), "box switch");
    assert.equal(boxes.get("GR_kube-minion2"), "box gateway");
    assert.ok(texts.includes("SNAT → 10.33.74.138"));
    assert.equal(boxes.get("ext_kube-minion2 10.33.74.138/24"), "box external");
    assert.ok(texts.includes("rtoj-ovn_cluster_router 100.64.0.1/16"));
});

test("staging stack (interconnect): a zone per node, each with its cluster router on the transit switch", async () => {
    const model = modelOf(stackFile("staging"));
    const { texts, boxes } = checkSvg(await plannedTopologySvg(model, "staging"));
    assert.equal(boxes.get("transit_switch"), "box switch");
    for (const n of model.kube.nodes) {
        assert.ok(texts.includes(`zone ${n.name}`), n.name);
        assert.ok(texts.includes(`transit ${n.transit![0].cidr}`), n.name);
        assert.ok(texts.includes(`rtots-${n.name}`), n.name);
        assert.equal(boxes.get(`GR_${n.name}`), "box gateway");
    }
});

for (const [name, raw] of [
    ["Pulumi mode", largePulumiStack],
    ["interconnect", largeInterconnectStack],
] as const) {
    test(`${LARGE} nodes (${name}): collapsed into groups of ${GROUP_SIZE}, every node named once, drawn by rsvg-convert`, async () => {
        const model = modelOf(raw());
        assert.ok(model.nodeNetworks.length === LARGE && LARGE > COLLAPSE_ABOVE);
        const { texts, boxes } = checkSvg(await plannedTopologySvg(model, "large"));
        const groups = [...boxes.values()].filter((c) => c === "box nodes");
        assert.equal(groups.length, Math.ceil(LARGE / GROUP_SIZE));
        for (const node of nodeNames(model)) assert.equal(naming(texts, node).length, 1, node);
        const switches = [...boxes].filter(([, c]) => c === "box switch").map(([title]) => title);
        assert.deepEqual(switches, [name === "interconnect" ? "transit_switch" : "join"], "no node drawn as a switch of its own");
        const gatewayLines = texts.filter((t) => / GR_\S+ SNAT → /.test(t));
        assert.equal(gatewayLines.length, name === "interconnect" ? LARGE : model.gateways.length);
    });
}

test("a live reading marks the box that differs (orange), the one missing a row (red), and no other", async () => {
    const model = modelOf(stackFile("staging"));
    const { texts, boxes, fills } = checkSvg(
        await liveTopologySvg(model, "staging", exampleDifferences(model, "10.128.200.0/23", "worker-0", "worker-1")),
    );
    assert.equal(boxes.get("worker-0"), "box switch differs");
    assert.equal(boxes.get("GR_worker-1"), "box gateway missing");
    const marked = [...boxes.entries()].filter(([, c]) => c.endsWith(" differs") || c.endsWith(" missing")).map(([t]) => t);
    assert.deepEqual(marked.sort(), ["GR_worker-1", "worker-0"]);
    const detail = texts.find((t) => t.includes(`live "10.128.200.0/23"`))!;
    assert.equal(fills.get(detail), ORANGE);
    assert.equal(fills.get(texts.find((t) => t.includes("NAT GR_worker-1 snat") && t.endsWith("missing"))!), RED);
    assert.ok(texts.some((t) => t.endsWith("2 differences from the plan")));
});

test("a live reading of a collapsed group colours the node's line; an unread database marks its zone's boxes missing", async () => {
    const model = modelOf(largeInterconnectStack());
    const differs: NbDifferences[] = plannedNbRows(model).map((nb) => ({
        host: nb.host,
        zone: nb.zone,
        differences:
            nb.zone === "worker-30"
                ? [{ row: "Logical_Switch worker-30", column: "other_config:subnet", expected: "x", observed: NO_ROW }]
                : [],
    }));
    const { texts, fills } = checkSvg(await liveTopologySvg(model, "large", differs));
    const line = naming(texts, "worker-30")[0];
    assert.equal(fills.get(line), RED);
    assert.notEqual(fills.get(naming(texts, "worker-31")[0]), RED);

    const staging = modelOf(stackFile("staging"));
    const unread: NbDifferences[] = plannedNbRows(staging).map((nb) => ({
        host: nb.host,
        zone: nb.zone,
        differences: [],
        ...(nb.zone === "master-1" ? { error: "connection refused" } : {}),
    }));
    const { boxes, texts: stagingTexts } = checkSvg(await liveTopologySvg(staging, "staging", unread));
    for (const title of ["master-1", "GR_master-1"]) assert.match(boxes.get(title)!, / missing$/, title);
    assert.equal(boxes.get("master-0"), "box switch");
    assert.ok(stagingTexts.some((t) => t.includes("Northbound of master-1 not read: connection refused")));
});
