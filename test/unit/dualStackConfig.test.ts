// The dual-stack and IPv6-only shapes the invalid-config cases start from are valid themselves, so
// that each case's refusal is its own mutation's.
import assert from "node:assert/strict";
import { test } from "node:test";
import { validateConfig } from "../../components/plan/validate";
import { invalidCase } from "../support/invalidConfigs";
import { dual, ipv6Only } from "../support/invalidDualStack";

test("the dual-stack shape is a valid stack, IPv4 first", () => {
    const { cfg, texts } = invalidCase(dual);
    const v = validateConfig(cfg, texts);
    assert.deepEqual(v.ipFamilies, ["ipv4", "ipv6"]);
    assert.deepEqual(v.nodes[0].subnets, ["192.168.1.0/24", "fd00:10:244:1::/64"]);
    assert.deepEqual(v.hostSubnetLengths, [24, 64]);
    assert.deepEqual(v.nodes[2].nodeIps, ["10.0.0.12", "fd00:10::13"]);
});

test("the IPv6-only shape is a valid stack: IPv6 node addresses, tunnels and ranges", () => {
    const { cfg, texts } = invalidCase(ipv6Only);
    const v = validateConfig(cfg, texts);
    assert.deepEqual(v.ipFamilies, ["ipv6"]);
    assert.deepEqual(v.serviceSubnets, ["fd00:10:96::/112"]);
    assert.deepEqual(
        v.nodes.map((n) => n.tunnelIp),
        ["fd00:10::11", "fd00:10::12", "fd00:10::13"],
    );
});

test("a single-stack stack keeps its meaning: one family, the numbers and defaults it always had", () => {
    const { cfg, texts } = invalidCase(() => undefined);
    const v = validateConfig(cfg, texts);
    assert.deepEqual(v.ipFamilies, ["ipv4"]);
    assert.deepEqual(v.hostSubnetLengths, [24]);
    assert.deepEqual(v.joinSubnets, ["100.64.0.0/16"]);
    assert.deepEqual(v.masqueradeSubnets, ["169.254.0.0/17"]);
});
