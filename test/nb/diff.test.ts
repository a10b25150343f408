// The provider's diff, pure: which input paths and row states changed, and which replace.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { UNKNOWN } from "../../components/nb/check";
import { diffNb } from "../../components/nb/diff";
import { outputsOf } from "../../components/nb/inputs";
import { gatewayRouterKind } from "../../components/nb/kinds/gatewayRouter";
import { nodeSwitchKind } from "../../components/nb/kinds/nodeSwitch";
import { specStates } from "../../components/nb/rows";
import { devInputs } from "./support/inputs";

const { node, gateway } = devInputs();
const recorded = (kind: typeof nodeSwitchKind | typeof gatewayRouterKind, inputs: Record<string, any>) =>
    outputsOf(kind, inputs, kind.group(inputs as never), specStates(kind.rows(inputs as never)));
const clone = <T>(v: T): T => JSON.parse(JSON.stringify(v));

describe("diffNb", () => {
    it("reports nothing for the same inputs against the rows they produced", () => {
        assert.deepEqual(diffNb(nodeSwitchKind, recorded(nodeSwitchKind, node), node), { replaces: [], updates: [] });
        assert.deepEqual(diffNb(gatewayRouterKind, recorded(gatewayRouterKind, gateway), gateway), { replaces: [], updates: [] });
    });

    it("a new subnet is an in-place update of exactly the columns it touches", () => {
        const news = clone(node);
        Object.assign(news.network, { subnet: "192.168.11.0/24", router: { ip: "192.168.11.1", cidr: "192.168.11.1/24", mac: "0a:58:c0:a8:0b:01" } });
        const d = diffNb(nodeSwitchKind, recorded(nodeSwitchKind, node), news);
        assert.deepEqual(d.replaces, []);
        assert.deepEqual(d.updates.sort(), [
            "network.router.cidr",
            "network.router.ip",
            "network.router.mac",
            "network.subnet",
            "rows.router-port.mac",
            "rows.router-port.networks",
            "rows.switch-router-port.addresses",
            "rows.switch.external_ids",
            "rows.switch.other_config",
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
        assert.deepEqual(diffNb(nodeSwitchKind, recorded(nodeSwitchKind, node), news), { replaces: [], updates: ["nb.privateKey", "nb.ssh.user"] });
    });

    it("drift recorded by refresh (a port gone, a column changed) is an update", () => {
        const olds = recorded(nodeSwitchKind, node);
        delete olds.rows["mgmt-port"];
        olds.rows["router-port"].columns.mac = "0a:00:00:00:00:99";
        olds.rows["extra@x"] = { table: "Logical_Switch_Port", columns: { name: "k8s-old" } };
        assert.deepEqual(diffNb(nodeSwitchKind, olds, node), { replaces: [], updates: ["rows.extra@x", "rows.mgmt-port", "rows.router-port.mac"] });
    });

    it("values unknown at preview: systemId is an update, an unknown node name a replacement", () => {
        const news = clone(gateway);
        news.systemId = UNKNOWN;
        assert.deepEqual(diffNb(gatewayRouterKind, recorded(gatewayRouterKind, gateway), news), { replaces: [], updates: ["systemId"] });
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
        assert.ok(d.updates.includes("rows.router.options"));
        assert.ok(d.updates.includes("rows.router-external-port.mac"));
        assert.ok(d.updates.includes("rows.external-router-port.addresses"));
        assert.ok(d.updates.includes("rows.cluster-route-rampout/192.168.128.0/17"));
    });
});
