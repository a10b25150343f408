// Real gateway hosts (local cluster, real sshd): the shared NIC moves onto breth0 under the very
// SSH session that runs the script and the host stays reachable; the conntrack flows appear once
// ovn-controller binds the gateway's localnet port; delete restores the NIC exactly. Also a
// dedicated NIC (eth1, one end of a veth pair the test makes inside the host).
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { down } from "../../lab/localcluster";
import type { LocalCluster } from "../../lab/localcluster";
import * as scripts from "../../components/hosts/scripts";
import { centralModel, gatewayModel } from "./fixtures";
import { inHost, labHost, ovsdbAddresses, startLab } from "./support/lab";
import { runOk, runScript } from "./support/remote";

const ID = "hostsgw";
let lab: LocalCluster;
const GW = "node2";
const shared = () =>
    gatewayModel("shared", {
        node: GW,
        uplinkPort: "breth0_node2",
        physical: { ip: lab.hosts[1].ip, cidr: `${lab.hosts[1].ip}/${lab.prefixLen}`, mac: "" },
    });
/** A static route of the host's own, to prove routes move with the addresses and come back. */
const EXTRA_ROUTE = "198.51.100.0/24";

/** The NIC's IPv4 state as `ip` shows it, device names left out so eth0 and breth0 compare. */
async function ipv4State(dev: string): Promise<{ addrs: string[]; routes: string[] }> {
    const addrs = (await inHost(lab, GW, `ip -4 -o addr show dev ${dev} scope global | awk '{print $4}'`))
        .trim()
        .split("\n")
        .filter(Boolean);
    const routes = (await inHost(lab, GW, `ip -4 route show dev ${dev}`)).trim().split("\n").filter(Boolean).sort();
    return { addrs, routes };
}

before(async () => {
    lab = await startLab(ID, 2);
    for (const h of lab.hosts) await runOk(lab, h.name, scripts.ovsStartScript(labHost(h)).create);
    await runOk(lab, "node1", scripts.centralScript(centralModel(false, lab.hosts[0].ip)).create);
    await inHost(lab, GW, `ip route add ${EXTRA_ROUTE} via ${lab.external.ip} dev eth0 proto static metric 50`);
});
after(async () => {
    await down(ID);
});

let before_: { addrs: string[]; routes: string[] };
let nicMac: string;

test("shared NIC: eth0 joins breth0, its address and routes move, the host still answers SSH", async () => {
    before_ = await ipv4State("eth0");
    assert.deepEqual(before_.addrs, [`${lab.hosts[1].ip}/${lab.prefixLen}`]);
    const eth0Mac = (await inHost(lab, GW, "cat /sys/class/net/eth0/address")).trim();
    const r = await runOk(lab, GW, scripts.gatewayBridgeScript(shared(), "netdev").create);
    // The second login, over the moved path, keeps the move (nicMove.test.ts: what happens without).
    await runOk(lab, GW, scripts.gatewayConfirmScript(shared(), scripts.parseConfirmToken(r.stdout), "node2-gw-bridge"));
    nicMac = scripts.parseNicMac(r.stdout);
    assert.equal(nicMac, eth0Mac);
    assert.equal((await inHost(lab, GW, "ovs-vsctl port-to-br eth0")).trim(), "breth0");
    assert.deepEqual((await ipv4State("breth0")).addrs, before_.addrs);
    assert.deepEqual((await ipv4State("eth0")).addrs, []);
    assert.deepEqual((await ipv4State("breth0")).routes, before_.routes);
    assert.equal((await inHost(lab, GW, "cat /sys/class/net/breth0/address")).trim(), eth0Mac);
    assert.equal((await inHost(lab, GW, "ovs-vsctl get Bridge breth0 fail_mode")).trim(), "standalone");
    assert.match(await inHost(lab, GW, "ovs-vsctl get Bridge breth0 external_ids:bridge-id"), /breth0/);
    // A fresh SSH session to the moved address, and a re-run that changes nothing.
    assert.equal((await runOk(lab, GW, "hostname")).stdout.trim(), GW);
    const again = await runOk(lab, GW, scripts.gatewayBridgeScript(shared(), "netdev").create);
    assert.equal(scripts.parseNicMac(again.stdout), nicMac);
    assert.deepEqual(await ipv4State("breth0"), { addrs: before_.addrs, routes: before_.routes.map((x) => x) });
});

test("shared NIC flows: after the gateway router is bound here, conntrack splits host and router traffic", async () => {
    const central = lab.hosts[0];
    const host = labHost(lab.hosts[1], { bridgeMappings: "physnet:breth0" });
    const systemId = scripts.parseSystemId((await runOk(lab, GW, scripts.chassisScript(host, ovsdbAddresses(central)).create)).stdout);
    await runOk(lab, "node1", scripts.chassisScript(labHost(central), ovsdbAddresses(central)).create);
    // The minimum NB a shared gateway needs for ovn-controller to plug ext_node2 into breth0.
    await inHost(
        lab,
        "node1",
        [
            `ovn-nbctl lr-add GR_node2 -- set Logical_Router GR_node2 options:chassis=${systemId}`,
            `ovn-nbctl lrp-add GR_node2 rtoe-GR_node2 ${nicMac} ${lab.hosts[1].ip}/${lab.prefixLen}`,
            "ovn-nbctl ls-add ext_node2",
            "ovn-nbctl lsp-add ext_node2 etor-GR_node2 -- lsp-set-type etor-GR_node2 router -- lsp-set-addresses etor-GR_node2 router -- lsp-set-options etor-GR_node2 router-port=rtoe-GR_node2",
            "ovn-nbctl lsp-add ext_node2 breth0_node2 -- lsp-set-type breth0_node2 localnet -- lsp-set-addresses breth0_node2 unknown -- lsp-set-options breth0_node2 network_name=physnet",
        ].join(" && "),
    );
    const flows = scripts.gatewayFlowsScript(shared());
    await runOk(lab, GW, flows.create);
    const dump = await inHost(lab, GW, "ovs-ofctl -O OpenFlow13 dump-flows breth0 --no-stats");
    const ofport = async (i: string) => (await inHost(lab, GW, `ovs-vsctl get Interface ${i} ofport`)).trim();
    const patch = await ofport("patch-breth0_node2-to-br-int");
    const nic = await ofport("eth0");
    assert.match(dump, new RegExp(`priority=100,ip,in_port=${patch} actions=ct\\(commit,zone=64000\\),output:${nic}`));
    assert.match(dump, new RegExp(`priority=50,ip,in_port=${nic} actions=ct\\(table=1,zone=64000\\)`));
    assert.match(dump, new RegExp(`table=1, priority=100,ct_state=\\+est\\+trk,ip actions=output:${patch}`));
    assert.match(dump, new RegExp(`table=1, priority=100,ct_state=\\+rel\\+trk,ip actions=output:${patch}`));
    assert.match(dump, new RegExp(`priority=10,in_port=${nic},dl_dst=${nicMac} actions=output:${patch},LOCAL`));
    assert.match(dump, /table=1, priority=0 actions=LOCAL/);
    assert.equal(dump.match(/actions=NORMAL/g)?.length, 1);
    assert.match((await runOk(lab, GW, flows.create)).log, /unchanged/);
    // The host's own traffic still flows (to LOCAL): a new SSH session over breth0.
    assert.equal((await runOk(lab, GW, "hostname")).stdout.trim(), GW);
    await runOk(lab, GW, flows.delete!);
    assert.deepEqual((await inHost(lab, GW, "ovs-ofctl -O OpenFlow13 dump-flows breth0 --no-stats")).trim().split("\n"), [
        "priority=0 actions=NORMAL",
    ]);
});

test("shared NIC delete: eth0 gets its address and routes back exactly, breth0 is gone, SSH answers", async () => {
    await runOk(lab, GW, scripts.gatewayBridgeScript(shared(), "netdev").delete!);
    assert.deepEqual(await ipv4State("eth0"), before_);
    assert.equal((await runScript(lab, GW, "test -e /sys/class/net/breth0")).code, 1);
    assert.equal((await inHost(lab, GW, "ovs-vsctl list-br")).includes("breth0"), false);
    assert.equal((await runOk(lab, GW, "hostname")).stdout.trim(), GW);
    await runOk(lab, GW, scripts.gatewayBridgeScript(shared(), "netdev").delete!); // idempotent
    assert.deepEqual(await ipv4State("eth0"), before_);
});

test("dedicated NIC: eth1 joins breth1 and leaves the host stack; delete restores its address and route", async () => {
    // eth1 and its addresses exist only inside this test's namespace.
    await inHost(
        lab,
        GW,
        "ip link add eth1 type veth peer name eth1-peer && ip link set eth1-peer up && ip addr add 192.0.2.5/24 dev eth1 && ip link set eth1 up && ip route add 203.0.113.0/24 via 192.0.2.1 dev eth1 proto static",
    );
    const eth1Before = { addrs: ["192.0.2.5/24"], routes: (await inHost(lab, GW, "ip -4 route show dev eth1")).trim().split("\n").sort() };
    const dedicated = gatewayModel("dedicated", { node: GW, interface: "eth1", bridge: "breth1", uplinkPort: "breth1_node2" });
    const script = scripts.gatewayBridgeScript(dedicated, "netdev");
    const created = await runOk(lab, GW, script.create);
    await runOk(lab, GW, scripts.gatewayConfirmScript(dedicated, scripts.parseConfirmToken(created.stdout), "node2-gw-bridge"));
    const mac = scripts.parseNicMac(created.stdout);
    assert.equal(mac, (await inHost(lab, GW, "cat /sys/class/net/eth1/address")).trim());
    assert.equal((await inHost(lab, GW, "ovs-vsctl port-to-br eth1")).trim(), "breth1");
    assert.equal((await inHost(lab, GW, "ip -4 -o addr show dev eth1")).trim(), "");
    assert.equal((await inHost(lab, GW, "ip -4 -o addr show dev breth1")).trim(), "", "a dedicated NIC gives the host nothing");
    await runOk(lab, GW, script.create);
    await runOk(lab, GW, script.delete!);
    assert.equal((await inHost(lab, GW, "ovs-vsctl list-br")).includes("breth1"), false);
    const after = {
        addrs: (await inHost(lab, GW, "ip -4 -o addr show dev eth1 | awk '{print $4}'")).trim().split("\n"),
        routes: (await inHost(lab, GW, "ip -4 route show dev eth1")).trim().split("\n").sort(),
    };
    assert.deepEqual(after, eth1Before);
});
