// A reboot of a namespaced Debian 13 host (its own root, so the boot entry's files are its own):
// after a shared gateway NIC moved onto breth0 (IPv4 and IPv6 addresses, static routes) and a
// management port came up, the host loses every daemon and all kernel state a reboot loses
// (addresses, routes, nftables, OVS's kernel devices, /run); then what its boot would run runs:
// Open vSwitch from its database (the OVS start script), the project's boot entry (the LSB init
// script: the host has no init system) and ovn-controller (as ovn-host's init script starts it).
// The host answers SSH at its address again, breth0, the management port and the ingress filter
// are back, and ovn-controller reconnects to the central. Also: a NIC the distribution configures
// is refused before anything changes, and deletes remove their pieces and finally the boot entry.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { down, hostExec, up } from "../../lab/localcluster";
import type { LocalCluster } from "../../lab/localcluster";
import { run } from "../../lab/localcluster/run";
import * as scripts from "../../components/hosts/scripts";
import { lintScript } from "./support/bash";
import { centralModel, gatewayModel, hostModel, nodeNetworkModel } from "./fixtures";
import { inHost, labHost, ovsdbAddresses } from "./support/lab";
import { installBundle, runOk, runScript } from "./support/remote";
import { bootHost, INIT_SCRIPT, powerOff } from "./support/reboot";

const ID = "hostrbt";
const GW = "node2";
let lab: LocalCluster;
const V6 = { host: "2001:db8:7::12", external: "2001:db8:7::1", prefix: 64, route: "2001:db8:8::/64" };
const EXTRA_ROUTE = "198.51.100.0/24";
const shared = () => gatewayModel("shared", { node: GW, uplinkPort: "breth0_node2" });
const mgmt = () =>
    nodeNetworkModel({
        node: GW,
        switchName: GW,
        mgmtPort: "k8s-node2",
        mgmtInterface: "k8s-node2",
        subnet: "10.128.2.0/24",
        router: { ip: "10.128.2.1", cidr: "10.128.2.1/24", mac: "0a:58:0a:80:02:01" },
        mgmt: { ip: "10.128.2.2", cidr: "10.128.2.2/24", mac: "0a:58:0a:80:02:02" },
    });

const lines = async (cmd: string) => (await inHost(lab, GW, cmd)).split("\n").filter(Boolean).sort();
/** What a reboot loses and the boot entry must bring back. */
async function hostNetwork() {
    return {
        breth0: await lines("ip -o addr show dev breth0 scope global | awk '{ print $3, $4 }'"),
        breth0Routes: [...(await lines("ip -4 route show dev breth0")), ...(await lines("ip -6 route show dev breth0 | grep -v '^fe80'"))],
        eth0: await lines("ip -o addr show dev eth0 scope global | awk '{ print $3, $4 }'"),
        mgmt: await lines("ip -o addr show dev k8s-node2 scope global | awk '{ print $3, $4 }'"),
        mgmtRoutes: await lines("ip -4 route show dev k8s-node2"),
        mgmtMac: (await inHost(lab, GW, "cat /sys/class/net/k8s-node2/address")).trim(),
        filter: (
            await inHost(
                lab,
                GW,
                "nft list table netdev ovn-k8s-eth0 2>/dev/null | grep -o 'hook ingress device \"eth0\".*policy drop' || true",
            )
        ).trim(),
    };
}

async function waitFor(what: string, seconds: number, check: () => Promise<boolean>): Promise<void> {
    const deadline = Date.now() + seconds * 1000;
    while (!(await check())) {
        if (Date.now() > deadline) assert.fail(`timed out after ${seconds} s waiting for ${what}`);
        await new Promise((r) => setTimeout(r, 200));
    }
}
/** Run in the host (its namespaces, not SSH: the host may be unreachable), keeping the status. */
const inHostCode = (script: string) => hostExec(lab, GW, ["bash", "-c", script]);
const controllerConnected = async () => (await inHostCode("ovn-appctl -t ovn-controller connection-status")).stdout.trim() === "connected";

before(async () => {
    await down(ID);
    lab = await up({ id: ID, hosts: 2, os: "debian13" });
    for (const h of lab.hosts) await installBundle(lab, h.name);
    const central = lab.hosts[0];
    await Promise.all(
        lab.hosts.map(async (h) => {
            const packages = h.name === "node1" ? ["openvswitch-switch", "ovn-central", "ovn-host"] : ["openvswitch-switch", "ovn-host"];
            await runOk(lab, h.name, scripts.packagesScript(hostModel({ name: h.name, packages }), {}).create);
            await runOk(lab, h.name, scripts.ovsStartScript(labHost(h)).create);
        }),
    );
    await runOk(lab, "node1", scripts.centralScript(centralModel(false, central.ip)).create);
    for (const h of lab.hosts) await runOk(lab, h.name, scripts.chassisScript(labHost(h), ovsdbAddresses(central)).create);
    await inHost(
        lab,
        GW,
        [
            `ip -6 addr add ${V6.host}/${V6.prefix} dev eth0`,
            `ip route add ${EXTRA_ROUTE} via ${lab.external.ip} dev eth0 proto static metric 50`,
            `ip -6 route add ${V6.route} via ${V6.external} dev eth0 metric 512`,
        ].join(" && "),
    );
    await run(["ip", "netns", "exec", lab.external.ns, "ip", "-6", "addr", "add", `${V6.external}/${V6.prefix}`, "dev", "eth0", "nodad"]);
    await waitFor("IPv6 DAD on eth0", 10, async () => (await inHost(lab, GW, "ip -6 -o addr show dev eth0 tentative")).trim() === "");
});
after(async () => {
    await down(ID);
});

test("the boot program passes bash -n and shellcheck", () => {
    assert.deepEqual(lintScript(scripts.bootProgram()), []);
});

test("a NIC the distribution configures is refused before anything changes, naming the file and the fix", async () => {
    // On a tmpfs of the host's own mount namespace: Debian 12 hosts share this machine's /etc.
    await inHost(
        lab,
        GW,
        "mount -t tmpfs lab-etc-network /etc/network && printf 'auto eth0\\niface eth0 inet static\\n    address 192.0.2.9/24\\n' >/etc/network/interfaces",
    );
    const r = await runScript(lab, GW, scripts.gatewayBridgeScript(shared(), "netdev").create);
    await inHost(lab, GW, "umount /etc/network");
    assert.notEqual(r.code, 0);
    assert.match(r.stderr, /eth0 is configured by this host's own network configuration/);
    assert.match(r.stderr, /\/etc\/network\/interfaces:2:iface eth0 inet static/);
    assert.match(r.stderr, /'iface eth0 inet manual'/);
    assert.equal((await inHost(lab, GW, "ovs-vsctl list-br")).includes("breth0"), false, "nothing changed");
});

let before_: Awaited<ReturnType<typeof hostNetwork>>;

test("a confirmed move and a management port are recorded as pieces (0600) and the boot entry is installed", async () => {
    const moved = await runOk(lab, GW, scripts.gatewayBridgeScript(shared(), "netdev").create);
    assert.equal((await runScript(lab, GW, `test -e ${scripts.nicPiece("eth0")}`)).code, 1, "no piece before the confirmation");
    await runOk(lab, GW, scripts.gatewayConfirmScript(shared(), scripts.parseConfirmToken(moved.stdout), "node2-gw-bridge"));
    await runOk(lab, GW, scripts.managementPortScript(mgmt()).create);
    for (const piece of [scripts.nicPiece("eth0"), scripts.mgmtPiece("k8s-node2")]) {
        assert.equal((await inHost(lab, GW, `stat -c %a ${piece}`)).trim(), "600", piece);
    }
    const nic = await inHost(lab, GW, `cat ${scripts.nicPiece("eth0")}`);
    assert.match(nic, new RegExp(`^address -4 ${lab.hosts[1].ip.replace(/\./g, "\\.")}/${lab.prefixLen}( brd \\S+)?$`, "m"));
    assert.match(nic, new RegExp(`^address -6 ${V6.host}/${V6.prefix}$`, "m"));
    assert.match(nic, new RegExp(`^route -4 ${EXTRA_ROUTE.replace(/\./g, "\\.")} via `, "m"));
    assert.match(nic, /^ingress_filter 1$/m);
    assert.match(await inHost(lab, GW, `head -12 ${INIT_SCRIPT}`), /Required-Start:\s+\$local_fs openvswitch-switch/);
    assert.match(await inHost(lab, GW, `ls /etc/rc2.d`), new RegExp(`S\\d\\d${scripts.BOOT_ENTRY}`), "enabled by update-rc.d");
    before_ = await hostNetwork();
    assert.equal(before_.breth0.length, 2, "IPv4 and IPv6 on breth0");
    assert.notEqual(before_.filter, "");
});

test("reboot: what the boot runs brings breth0, the management port, the ingress filter and ovn-controller back", async (t) => {
    await powerOff(lab, GW, "eth0", `${lab.hosts[1].ip}/${lab.prefixLen}`);
    const ping = await run(["ip", "netns", "exec", lab.external.ns, "ping", "-c", "1", "-W", "1", lab.hosts[1].ip]);
    assert.notEqual(ping.code, 0, "the host is unreachable before its boot");
    const boot = await bootHost(lab, labHost(lab.hosts[1]));
    assert.match(boot.bootLog, /eth0 on breth0 \(shared\): restored/);
    assert.match(boot.bootLog, /management port k8s-node2: restored/);
    t.diagnostic(`OVS start, boot entry and ovn-controller start: ${boot.ms} ms`);
    assert.equal((await runOk(lab, GW, "hostname")).stdout.trim(), GW, "SSH at the host's address");
    // Bounded: IPv6 duplicate address detection on breth0 may still run.
    const deadline = Date.now() + 10_000;
    let now = await hostNetwork();
    while (JSON.stringify(now) !== JSON.stringify(before_) && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 200));
        now = await hostNetwork();
    }
    assert.deepEqual(now, before_);
    const ping6 = await run(["ip", "netns", "exec", lab.external.ns, "ping", "-6", "-c", "1", "-W", "2", V6.host]);
    assert.equal(ping6.code, 0, ping6.stderr);
    await waitFor("ovn-controller to reconnect to the Southbound database", 30, controllerConnected);
    // The boot entry is idempotent: a second run changes nothing.
    assert.equal((await inHostCode(`${INIT_SCRIPT} start`)).code, 0);
    assert.deepEqual(await hostNetwork(), before_);
});

test("deletes remove their pieces; the last one removes the boot entry", async () => {
    await runOk(lab, GW, scripts.managementPortScript(mgmt()).delete!);
    assert.equal((await runScript(lab, GW, `test -e ${scripts.mgmtPiece("k8s-node2")}`)).code, 1);
    assert.equal((await runScript(lab, GW, `test -x ${INIT_SCRIPT}`)).code, 0, "still needed by the NIC move");
    await runOk(lab, GW, scripts.gatewayBridgeScript(shared(), "netdev").delete!);
    for (const gone of [scripts.nicPiece("eth0"), INIT_SCRIPT, scripts.BOOT_PROGRAM_PATH]) {
        assert.equal((await runScript(lab, GW, `test -e ${gone}`)).code, 1, gone);
    }
    assert.doesNotMatch(await inHost(lab, GW, "ls /etc/rc2.d"), new RegExp(scripts.BOOT_ENTRY));
    assert.equal((await runOk(lab, GW, "hostname")).stdout.trim(), GW);
});
