// The bridge and NIC rules of validation, before anything reaches a host: a gateway bridge is never
// br-int, the node's tunnel bridge or its tunnel NIC, and a dedicated NIC never carries the node's
// SSH address or tunnel IP. The scripts refuse the same on the host (nicMove.test.ts); the script
// generator refuses br-int too.
import assert from "node:assert/strict";
import { test } from "node:test";
import { ConfigError, validateConfig } from "../../components/plan/validate";
import * as scripts from "../../components/hosts/scripts";
import { stackConfig } from "../../lab/harness/configs";
import { gatewayModel } from "./fixtures";

type Cfg = ReturnType<typeof stackConfig>;

/** The problems validation reports for the dev stack (gateway: nodes[2], dedicated eth1) after `mutate`. */
function problems(mutate: (cfg: Cfg) => void): Array<{ path: string; message: string }> {
    const cfg = stackConfig("dev");
    mutate(cfg);
    try {
        validateConfig(cfg);
        return [];
    } catch (e) {
        assert.ok(e instanceof ConfigError, String(e));
        return e.problems;
    }
}

const gw = (cfg: Cfg) => cfg.nodes[2] as Cfg["nodes"][number] & { gateway: NonNullable<Cfg["nodes"][number]["gateway"]> };

test("the dev stack is valid as it is: its dedicated NIC eth1 is not on the SSH network", () => {
    assert.deepEqual(
        problems(() => {}),
        [],
    );
});

test("br-int is OVN's integration bridge: neither a gateway bridge nor a gateway NIC", () => {
    assert.deepEqual(
        problems((c) => (gw(c).gateway.bridge = "br-int"))
            .filter((p) => /integration bridge/.test(p.message))
            .map((p) => p.path),
        ["nodes[2].gateway.bridge"],
    );
    assert.deepEqual(
        problems((c) => (gw(c).gateway.interface = "br-int"))
            .filter((p) => /integration bridge/.test(p.message))
            .map((p) => p.path),
        ["nodes[2].gateway.interface"],
    );
    assert.throws(
        () => scripts.gatewayBridgeScript(gatewayModel("shared", { bridge: "br-int" }), "netdev"),
        /gateways\[node1\]\.bridge must not be br-int/,
    );
});

test("with the userspace datapath the tunnel NIC's bridge is reserved, and the tunnel NIC is no bridge name", () => {
    const tunnel = (c: Cfg) => {
        c.datapathType = "netdev";
        for (const n of c.nodes) n.tunnelInterface = "eth0";
    };
    const clash = problems((c) => {
        tunnel(c);
        gw(c).gateway.bridge = "breth0";
    });
    assert.ok(
        clash.some(
            (p) => p.path === "nodes[2].gateway.bridge" && /"breth0" is this node's tunnel bridge \(tunnelInterface eth0/.test(p.message),
        ),
        JSON.stringify(clash),
    );
    const nicName = problems((c) => {
        tunnel(c);
        gw(c).gateway.bridge = "eth0";
    });
    assert.ok(
        nicName.some(
            (p) => p.path === "nodes[2].gateway.bridge" && /"eth0" is this node's tunnelInterface, an existing NIC/.test(p.message),
        ),
        JSON.stringify(nicName),
    );
    // A shared gateway on the tunnel NIC itself is the tunnel bridge: that is allowed.
    assert.deepEqual(
        problems((c) => {
            tunnel(c);
            Object.assign(gw(c).gateway, { mode: "shared", interface: "eth0", physicalIp: "10.0.0.12/24", defaultGateway: "10.0.0.1" });
        }).filter((p) => /tunnel/.test(p.message)),
        [],
    );
});

test("a dedicated NIC never carries the node's SSH address or tunnel IP", () => {
    const ssh = problems((c) => Object.assign(gw(c).gateway, { physicalIp: "10.0.0.50/24", defaultGateway: "10.0.0.1" }));
    assert.ok(
        ssh.some(
            (p) =>
                p.path === "nodes[2].gateway.physicalIp" &&
                /nodes\[2\]\.address 10\.0\.0\.12 is inside its physicalIp 10\.0\.0\.50\/24.*locking out SSH; use mode "shared"/.test(
                    p.message,
                ),
        ),
        JSON.stringify(ssh),
    );
    const tunnel = problems((c) => {
        gw(c).tunnelIp = "10.33.74.20";
    });
    assert.ok(
        tunnel.some((p) => p.path === "nodes[2].gateway.physicalIp" && /nodes\[2\]\.tunnelIp 10\.33\.74\.20 is inside/.test(p.message)),
        JSON.stringify(tunnel),
    );
    const tunnelNic = problems((c) => {
        gw(c).tunnelInterface = "eth1";
    });
    assert.ok(
        tunnelNic.some((p) => p.path === "nodes[2].gateway.interface" && /eth1 is also the tunnelInterface/.test(p.message)),
        JSON.stringify(tunnelNic),
    );
    // Shared, the same addresses simply move with the NIC.
    assert.deepEqual(
        problems((c) => Object.assign(gw(c).gateway, { mode: "shared", physicalIp: "10.0.0.50/24", defaultGateway: "10.0.0.1" })).filter(
            (p) => /dedicated/.test(p.message),
        ),
        [],
    );
});
