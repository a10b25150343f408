// `check`, pure: every bad input is reported with the property it concerns, all at once,
// and the private key is never quoted.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { UNKNOWN } from "../../components/nb/core/check";
import { checkInputs } from "../../components/nb/resources/kindInputs";
import { clusterRouterKind } from "../../components/nb/kinds/clusterRouter";
import { NB_SCHEMA_VERSION } from "../../components/nb/kinds/common";
import { gatewayRouterKind } from "../../components/nb/kinds/gatewayRouter";
import { nodeSwitchKind } from "../../components/nb/kinds/nodeSwitch";
import { devInputs } from "./support/inputs";

const base = devInputs();
const clone = <T>(v: T): T => JSON.parse(JSON.stringify(v));
type Kind = typeof nodeSwitchKind | typeof gatewayRouterKind | typeof clusterRouterKind;

function failuresFor(kind: Kind, inputs: Record<string, any>, change: (i: any) => void) {
    const news = clone(inputs);
    change(news);
    return checkInputs(kind, news).failures;
}

const CASES: [string, Kind, keyof typeof base, (i: any) => void, string][] = [
    ["switch name with a shell character", nodeSwitchKind, "node", (i) => (i.network.switchName = "kube;rm -rf /"), "network.switchName"],
    ["port name with an OVSDB quote", nodeSwitchKind, "node", (i) => (i.network.mgmtPort = 'k8s-"x"'), "network.mgmtPort"],
    ["node name in upper case", nodeSwitchKind, "node", (i) => (i.network.node = "Kube"), "network.node"],
    ["malformed subnet", nodeSwitchKind, "node", (i) => (i.network.subnet = "192.168.1.0/33"), "network.subnet"],
    ["subnet with host bits", nodeSwitchKind, "node", (i) => (i.network.subnet = "192.168.1.7/24"), "network.subnet"],
    [
        "router address outside the subnet",
        nodeSwitchKind,
        "node",
        (i) => Object.assign(i.network.router, { ip: "10.9.9.1", cidr: "10.9.9.1/24" }),
        "network.router.ip",
    ],
    ["cidr not matching ip", nodeSwitchKind, "node", (i) => (i.network.mgmt.cidr = "192.168.1.3/24"), "network.mgmt.cidr"],
    ["malformed MAC", nodeSwitchKind, "node", (i) => (i.network.router.mac = "0a:58:zz:00:00:01"), "network.router.mac"],
    ["multicast MAC", nodeSwitchKind, "node", (i) => (i.network.mgmt.mac = "01:00:5e:00:00:01"), "network.mgmt.mac"],
    [
        "management IP equal to the router IP",
        nodeSwitchKind,
        "node",
        (i) => Object.assign(i.network.mgmt, { ip: "192.168.1.1", cidr: "192.168.1.1/24" }),
        "network.mgmt.ip",
    ],
    ["missing model", nodeSwitchKind, "node", (i) => delete i.network, "network"],
    ["missing owner", nodeSwitchKind, "node", (i) => delete i.owner, "owner"],
    ["owner with a space", nodeSwitchKind, "node", (i) => (i.owner = "proj/dev stack"), "owner"],
    ["missing NB connection", nodeSwitchKind, "node", (i) => delete i.nb, "nb"],
    ["SSH port out of range", nodeSwitchKind, "node", (i) => (i.nb.ssh.port = 70000), "nb.ssh.port"],
    ["SSH host with a shell character", nodeSwitchKind, "node", (i) => (i.nb.ssh.host = "host$(id)"), "nb.ssh.host"],
    ["no host key and not insecure", nodeSwitchKind, "node", (i) => delete i.nb.ssh.hostKey, "nb.ssh.hostKey"],
    ["unusable host key", nodeSwitchKind, "node", (i) => (i.nb.ssh.hostKey = "not-a-key"), "nb.ssh.hostKey"],
    ["socket path escaping upwards", nodeSwitchKind, "node", (i) => (i.nb.socket = "/var/run/../../etc/passwd"), "nb.socket"],
    ["socket with a space", nodeSwitchKind, "node", (i) => (i.nb.socket = "/var/run/ovn/nb db.sock"), "nb.socket"],
    ["unknown schema version", nodeSwitchKind, "node", (i) => (i.version = "99"), "version"],
    ["join address not a CIDR", clusterRouterKind, "router", (i) => (i.router.joinAddress.cidr = "100.64.0.1"), "router.joinAddress.cidr"],
    ["router name with brackets", clusterRouterKind, "router", (i) => (i.router.name = "ovn[0]"), "router.name"],
    ["system-id with a quote", gatewayRouterKind, "gateway", (i) => (i.systemId = "abc'def"), "systemId"],
    ["missing NIC MAC", gatewayRouterKind, "gateway", (i) => delete i.macAddress, "macAddress"],
    [
        "default gateway off the physical network",
        gatewayRouterKind,
        "gateway",
        (i) => (i.gateway.defaultGateway = "10.99.0.1"),
        "gateway.defaultGateway",
    ],
    [
        "rampout subnet outside the cluster subnet",
        gatewayRouterKind,
        "gateway",
        (i) => (i.gateway.rampoutSubnets = ["10.0.0.0/24"]),
        "gateway.rampoutSubnets.0",
    ],
    [
        "malformed rampout subnet",
        gatewayRouterKind,
        "gateway",
        (i) => (i.gateway.rampoutSubnets = ["192.168.0.0/16", "x"]),
        "gateway.rampoutSubnets.1",
    ],
    ["uplink port with a comma", gatewayRouterKind, "gateway", (i) => (i.gateway.uplinkPort = "breth1,x"), "gateway.uplinkPort"],
];

describe("checkInputs", () => {
    it("accepts the dev stack's model for all three kinds", () => {
        for (const [kind, inputs] of [
            [clusterRouterKind, base.router],
            [nodeSwitchKind, base.node],
            [gatewayRouterKind, base.gateway],
        ] as const) {
            assert.deepEqual(checkInputs(kind, inputs).failures, []);
        }
    });

    for (const [what, kind, which, change, property] of CASES) {
        it(`${what} → ${property}`, () => {
            const failures = failuresFor(kind, base[which] as Record<string, any>, change);
            assert.deepEqual(
                failures.map((f) => f.property),
                [property],
                JSON.stringify(failures),
            );
            assert.ok(failures[0].reason.length > 5);
        });
    }

    it("reports every problem at once", () => {
        const failures = failuresFor(nodeSwitchKind, base.node, (i) => {
            i.network.subnet = "nope";
            i.network.routerPort = "a b";
            i.owner = "";
        });
        assert.deepEqual(failures.map((f) => f.property).sort(), ["network.routerPort", "network.subnet", "owner"]);
    });

    it("never quotes the private key", () => {
        const secret = "-----BEGIN NOTHING-----\nc2VjcmV0LXRoYXQtbXVzdC1ub3QtbGVhaw==\n";
        const failures = failuresFor(nodeSwitchKind, base.node, (i) => (i.nb.privateKey = secret));
        assert.deepEqual(
            failures.map((f) => f.property),
            ["nb.privateKey"],
        );
        assert.ok(!JSON.stringify(failures).includes("c2VjcmV0"));
    });

    it("leaves values unknown at preview unchecked and fills defaults", () => {
        const raw = clone(base.gateway);
        raw.systemId = UNKNOWN;
        raw.macAddress = UNKNOWN;
        delete raw.nb.socket;
        delete raw.version;
        const { inputs, failures } = checkInputs(gatewayRouterKind, raw);
        assert.deepEqual(failures, []);
        assert.equal(inputs.nb.socket, "/var/run/ovn/ovnnb_db.sock");
        assert.equal(inputs.version, NB_SCHEMA_VERSION);
        assert.equal(inputs.systemId, UNKNOWN);
    });

    it("drops properties it does not know (they would never reach NB)", () => {
        const raw = { ...clone(base.node), extra: 1, network: { ...clone(base.node.network), mtu: 1400, mgmtInterface: "k8s-x" } };
        const { inputs } = checkInputs(nodeSwitchKind, raw);
        assert.equal("extra" in inputs, false);
        assert.equal("mtu" in inputs.network, false);
    });
});
