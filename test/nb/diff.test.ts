// The provider's diff, pure: which input paths and row states changed, and which replace.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { UNKNOWN } from "../../components/nb/core/check";
import { diffAnswer, diffNb } from "../../components/nb/resources/diff";
import { outputsOf } from "../../components/nb/resources/kindInputs";
import { gatewayRouterKind } from "../../components/nb/kinds/gatewayRouter";
import { nodeSwitchKind } from "../../components/nb/kinds/nodeSwitch";
import { specStates } from "../../components/nb/core/rows";
import { devInputs } from "./support/inputs";

const { node, gateway } = devInputs();
const recorded = (kind: typeof nodeSwitchKind | typeof gatewayRouterKind, inputs: Record<string, any>) =>
    outputsOf(kind, inputs, kind.group(inputs as never), specStates(kind.rows(inputs as never)));
const clone = <T>(v: T): T => JSON.parse(JSON.stringify(v));

describe("diffNb", () => {
    it("reports nothing for the same inputs against the rows they produced", () => {
        assert.deepEqual(diffNb(nodeSwitchKind, recorded(nodeSwitchKind, node), node), { replaces: [], updates: [], drift: [] });
        assert.deepEqual(diffNb(gatewayRouterKind, recorded(gatewayRouterKind, gateway), gateway), {
            replaces: [],
            updates: [],
            drift: [],
        });
    });

    it("a new subnet is an in-place update of exactly the columns it touches", () => {
        const news = clone(node);
        Object.assign(news.network, {
            subnet: "192.168.11.0/24",
            router: { ip: "192.168.11.1", cidr: "192.168.11.1/24", mac: "0a:58:c0:a8:0b:01" },
        });
        const d = diffNb(nodeSwitchKind, recorded(nodeSwitchKind, node), news);
        assert.deepEqual(d.replaces, []);
        assert.deepEqual(d.updates, ["network.router.cidr", "network.router.ip", "network.router.mac", "network.subnet"]);
        assert.deepEqual(d.drift, [
            "rows.Logical_Router_Port rtos-kube-master.mac",
            "rows.Logical_Router_Port rtos-kube-master.networks",
            "rows.Logical_Switch kube-master.external_ids",
            "rows.Logical_Switch kube-master.other_config",
            "rows.Logical_Switch_Port stor-kube-master.addresses",
        ]);
    });

    it("a renamed node or switch, another owner or another database replaces (deleting first)", () => {
        for (const [path, mutate] of [
            ["network.node", (n: any) => (n.network.node = "kube-other")],
            ["network.switchName", (n: any) => (n.network.switchName = "other")],
            ["network.mgmtPort", (n: any) => (n.network.mgmtPort = "k8s-other")],
            ["owner", (n: any) => (n.owner = "ovn-kubernetes/prod")],
            ["nb.socket", (n: any) => (n.nb.socket = "/run/other.sock")],
            ["nb.ssh.host", (n: any) => (n.nb.ssh.host = "127.0.0.2")],
        ] as const) {
            const news = clone(node);
            mutate(news);
            assert.deepEqual(diffNb(nodeSwitchKind, recorded(nodeSwitchKind, node), news).replaces, [path], path);
        }
    });

    it("a new private key or user is an update that changes no row", () => {
        const news = clone(node);
        news.nb.privateKey = news.nb.privateKey.replace("testonly", "rotated");
        news.nb.ssh.user = "ovn";
        assert.deepEqual(diffNb(nodeSwitchKind, recorded(nodeSwitchKind, node), news), {
            replaces: [],
            updates: ["nb.privateKey", "nb.ssh.user"],
            drift: [],
        });
    });

    it("drift recorded by refresh (a port gone, a column changed) is an update", () => {
        const olds = recorded(nodeSwitchKind, node);
        delete olds.rows["Logical_Switch_Port k8s-kube-master"];
        // As refresh records a drifted column: beside the row's UUID, only what differs.
        olds.rows["Logical_Router_Port rtos-kube-master"].mac = "0a:00:00:00:00:99";
        olds.rows["Logical_Switch_Port k8s-old@x"] = { table: "Logical_Switch_Port", key: "mgmt-port", columns: { name: "k8s-old" } };
        assert.deepEqual(diffNb(nodeSwitchKind, olds, node), {
            replaces: [],
            updates: [],
            drift: [
                "rows.Logical_Router_Port rtos-kube-master.mac",
                "rows.Logical_Switch_Port k8s-kube-master",
                "rows.Logical_Switch_Port k8s-old@x",
            ],
        });
    });

    it("the record holds of each row in step only its UUID (none here), and names a column that drifted", () => {
        const olds = recorded(nodeSwitchKind, node);
        assert.deepEqual(Object.values(olds.rows), [{}, {}, {}, {}]);
        assert.equal(olds.version, "4");
        assert.match(olds.declared, /^[0-9a-f]{16}$/);
    });

    it("a record whose declared rows are not what this code declares for the same inputs is an update", () => {
        const olds = { ...recorded(nodeSwitchKind, node), declared: "0123456789abcdef" };
        assert.deepEqual(diffNb(nodeSwitchKind, olds, node), { replaces: [], updates: [], drift: ["declared"] });
    });

    it("state of schema version 3 (every row whole, its key inside) reads as the same rows: no change but the version", () => {
        const v3 = {
            ...recorded(nodeSwitchKind, node),
            version: "3",
            declared: undefined,
            rows: specStates(nodeSwitchKind.rows(node as never)),
        };
        assert.deepEqual(diffNb(nodeSwitchKind, v3, node), { replaces: [], updates: ["version"], drift: [] });
        v3.rows["Logical_Router_Port rtos-kube-master"].columns.mac = "0a:00:00:00:00:99";
        assert.deepEqual(diffNb(nodeSwitchKind, v3, node).drift, ["rows.Logical_Router_Port rtos-kube-master.mac"]);
    });

    it("state of schema version 2 (rows keyed by row key, no key inside) reads as the same rows: no change", () => {
        const current = recorded(nodeSwitchKind, node);
        const whole = specStates(nodeSwitchKind.rows(node as never));
        const legacy = {
            ...current,
            version: "2",
            declared: undefined,
            rows: Object.fromEntries(Object.values<any>(whole).map(({ key, ...rest }) => [key, rest])),
        };
        assert.deepEqual(Object.keys(legacy.rows).sort(), ["mgmt-port", "router-port", "switch", "switch-router-port"]);
        assert.deepEqual(diffNb(nodeSwitchKind, legacy, node), { replaces: [], updates: ["version"], drift: [] });
        delete legacy.rows["mgmt-port"];
        assert.deepEqual(diffNb(nodeSwitchKind, legacy, node).drift, ["rows.Logical_Switch_Port k8s-kube-master"]);
    });

    it("values unknown at preview: systemId is an update, an unknown node name a replacement", () => {
        const news = clone(gateway);
        news.systemId = UNKNOWN;
        assert.deepEqual(diffNb(gatewayRouterKind, recorded(gatewayRouterKind, gateway), news), {
            replaces: [],
            updates: ["systemId"],
            drift: [],
        });
        news.gateway.node = UNKNOWN;
        assert.deepEqual(diffNb(gatewayRouterKind, recorded(gatewayRouterKind, gateway), news).replaces, ["gateway.node"]);
    });

    it("a new chassis, NIC MAC or rampout subnet changes the gateway's rows in place", () => {
        const news = clone(gateway);
        news.systemId = "chassis-2";
        news.macAddress = "52:54:00:00:00:02";
        news.gateway.rampoutSubnets = ["192.168.128.0/17"];
        const d = diffNb(gatewayRouterKind, recorded(gatewayRouterKind, gateway), news);
        assert.deepEqual(d.replaces, []);
        assert.deepEqual(d.updates, ["gateway.rampoutSubnets", "macAddress", "systemId"]);
        assert.ok(d.drift.includes("rows.Logical_Router GR_kube-minion2.options"));
        assert.ok(d.drift.includes("rows.Logical_Router_Port rtoe-GR_kube-minion2.mac"));
        assert.ok(d.drift.includes("rows.Logical_Switch_Port etor-GR_kube-minion2.addresses"));
        assert.ok(
            d.drift.includes("rows.Logical_Router_Static_Route ovn_cluster_router 192.168.128.0/17 100.64.103.136"),
            d.drift.join("\n"),
        );
    });
});

describe("diffAnswer: what the engine is told", () => {
    const none = { replaces: [], updates: [], drift: [] };
    it("changed inputs leave the diff to the engine (DIFF_UNKNOWN), which names them from the inputs", () => {
        const answer = diffAnswer({ ...none, updates: ["network.subnet"], drift: ["rows.Logical_Switch kube-master.other_config"] });
        assert.deepEqual(answer, { changes: undefined, replaces: [], deleteBeforeReplace: false });
    });
    it("drift alone is a change: the engine's diff of equal inputs would find none", () => {
        assert.deepEqual(diffAnswer({ ...none, drift: ["rows.Logical_Router_Port rtos-kube-master.mac"] }), {
            changes: true,
            replaces: [],
            deleteBeforeReplace: false,
        });
        assert.deepEqual(diffAnswer({ ...none, drift: ["declared"] }).changes, true);
    });
    it("a replacement stays the provider's decision, by top-level input, deleting first", () => {
        assert.deepEqual(diffAnswer({ ...none, replaces: ["network.node", "owner"], updates: ["network.subnet"] }), {
            changes: true,
            replaces: ["network", "owner"],
            deleteBeforeReplace: true,
        });
    });
    it("nothing changed is DIFF_NONE", () => {
        assert.deepEqual(diffAnswer(none), { changes: false, replaces: [], deleteBeforeReplace: false });
    });
});
