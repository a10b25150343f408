// The overlay MTU against the device carrying a node's tunnel address: what each encapsulation
// adds, where the refusal starts to the byte, what it names, and the read script's input checks.
import assert from "node:assert/strict";
import { test } from "node:test";
import { parseTunnelDevice, readTunnelDeviceScript, tunnelMtuRefusal, tunnelOverhead } from "../../components/compat/tunnelMtu";

const plan = (mtu: number, encapType = "geneve") => ({ node: "node2", mtu, encapType, tunnelIp: "10.0.0.12" });
const eth0 = { device: "eth0", mtu: 1500 };

test("geneve adds 58 bytes and vxlan 50; stt is not judged", () => {
    assert.equal(tunnelOverhead("geneve"), 58);
    assert.equal(tunnelOverhead("vxlan"), 50);
    assert.equal(tunnelOverhead("stt"), undefined);
    assert.equal(tunnelMtuRefusal(plan(9000, "stt"), eth0), undefined);
});

test("geneve on a 1500-byte device: 1442 fits, 1443 is refused naming the node, device, address and the largest MTU", () => {
    assert.equal(tunnelMtuRefusal(plan(1442), eth0), undefined);
    const why = tunnelMtuRefusal(plan(1443), eth0);
    assert.equal(
        why,
        "mtu 1443 does not fit node2's underlay: geneve adds 58 bytes, so tunnel packets of 1501 bytes would leave through eth0 (its tunnel address 10.0.0.12), whose MTU is 1500; set mtu to at most 1442, or raise the underlay's MTU first",
    );
    assert.equal(tunnelMtuRefusal(plan(1450, "vxlan"), eth0), undefined);
    assert.match(tunnelMtuRefusal(plan(1451, "vxlan"), eth0)!, /at most 1450/);
    assert.equal(tunnelMtuRefusal(plan(8942), { device: "breth0", mtu: 9000 }), undefined);
});

test("no device holds the tunnel address yet: nothing to judge", () => {
    assert.equal(parseTunnelDevice(""), undefined);
    assert.equal(tunnelMtuRefusal(plan(9000), undefined), undefined);
    assert.deepEqual(parseTunnelDevice("breth0 1500\n"), { device: "breth0", mtu: 1500 });
});

test("an IPv6 underlay's outer header is 20 bytes longer", () => {
    assert.equal(tunnelOverhead("geneve", "fd00:10::12"), 78);
    assert.equal(tunnelOverhead("geneve", "10.0.0.12"), 58);
    const v6 = { node: "node2", mtu: 1423, encapType: "geneve", tunnelIp: "fd00:10::12" };
    assert.match(tunnelMtuRefusal(v6, { device: "eth0", mtu: 1500 })!, /geneve adds 78 bytes, .* set mtu to at most 1422/);
    assert.equal(tunnelMtuRefusal({ ...v6, mtu: 1422 }, { device: "eth0", mtu: 1500 }), undefined);
});

test("the read script takes only an IPv4 or IPv6 address", () => {
    assert.match(readTunnelDeviceScript("10.0.0.12"), /awk -v ip=10\.0\.0\.12 /);
    assert.match(readTunnelDeviceScript("fd00:10::12"), /awk -v ip=fd00:10::12 /);
    assert.throws(() => readTunnelDeviceScript("10.0.0.12; reboot"), /tunnelIp/);
});
