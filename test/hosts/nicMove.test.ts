// A NIC move as a transaction, on a real namespaced host over real SSH, with eth0 (the very path
// of the SSH session) as the NIC: a failure injected after each step leaves eth0 exactly as it
// was (IPv4 and IPv6 addresses, routes, bridge membership) and the host reachable; a move never
// confirmed undoes itself; a confirmed one stays, IPv4 and IPv6 on the bridge. Also the refusals:
// a bridge that is not ours, a bridge named like an existing NIC, a dedicated NIC carrying the
// SSH address.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { down, shellQuote } from "../../lab/localcluster";
import type { LocalCluster } from "../../lab/localcluster";
import { run } from "../../lab/localcluster/run";
import * as scripts from "../../components/hosts/scripts";
import { gatewayModel } from "./fixtures";
import { inHost, labHost, startLab } from "./support/lab";
import { runOk, runScript } from "./support/remote";

const ID = "hostsnm";
const H = "node1";
let lab: LocalCluster;
const V6 = { host: "2001:db8:5::11", external: "2001:db8:5::1", prefix: 64, route: "2001:db8:6::/64" };
const shared = () => gatewayModel("shared", { node: H, interface: "eth0", bridge: "breth0", uplinkPort: "breth0_node1" });
const move = () => scripts.gatewayBridgeScript(shared(), "netdev");
const confirm = (token: string) => scripts.gatewayConfirmScript(shared(), token, "node1-gw-bridge");
const stateFile = (what: string) => `${scripts.HOST_STATE_DIR}/move-eth0.${what}`;

/** What must come back exactly: a device's addresses (with flags), routes (both families), master and OVS bridge. */
async function nicState(dev: string) {
    const lines = async (cmd: string) => (await inHost(lab, H, cmd)).split("\n").filter(Boolean).sort();
    return {
        // Family, address and flags; the label (the device's name) and lifetimes left out.
        addresses: await lines(
            `ip -o addr show dev ${dev} scope global | awk -v dev=${dev} '{ l = $3; for (i = 4; i <= NF && $i != "valid_lft"; i++) if (index($i, dev) != 1 && $i != "\\\\") l = l " " $i; print l }'`,
        ),
        routes: [...(await lines(`ip -4 route show dev ${dev}`)), ...(await lines(`ip -6 route show dev ${dev}`))],
        master: (await inHost(lab, H, `ip -o link show dev ${dev} | grep -o 'master [^ ]*' || true`)).trim(),
        ovsBridge: (await inHost(lab, H, `ovs-vsctl port-to-br ${dev} 2>/dev/null || true`)).trim(),
        bridges: (await inHost(lab, H, "ovs-vsctl list-br")).trim(),
        ingressFilter: (await inHost(lab, H, "nft list tables netdev")).trim(),
    };
}

/** Polls (bounded) until the NIC's state equals `want`, then asserts it: DAD takes a moment. */
async function expectNicState(dev: string, want: Awaited<ReturnType<typeof nicState>>, label: string, seconds = 10): Promise<void> {
    const deadline = Date.now() + seconds * 1000;
    let got = await nicState(dev);
    while (JSON.stringify(got) !== JSON.stringify(want) && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 200));
        got = await nicState(dev);
    }
    assert.deepEqual(got, want, label);
}

/** The watcher of a pending move on the host, if one runs: its program file is on its command line. */
async function watcherRunning(): Promise<boolean> {
    const r = await run(["pgrep", "--ns", String(lab.hosts[0].holderPid), "--nslist", "net", "-f", stateFile("watch")]);
    return r.code === 0;
}

async function setHook(name: "failAt" | "confirmSeconds", value: string | undefined): Promise<void> {
    const file = scripts.MOVE_TEST_HOOKS[name];
    await inHost(
        lab,
        H,
        value === undefined ? `rm -f ${file}` : `mkdir -p ${scripts.HOST_STATE_DIR} && printf '%s' ${shellQuote(value)} >${file}`,
    );
}

const tokenOf = (stdout: string) => scripts.parseConfirmToken(stdout);
let eth0Before: Awaited<ReturnType<typeof nicState>>;

before(async () => {
    lab = await startLab(ID, 1);
    await runOk(lab, H, scripts.ovsStartScript(labHost(lab.hosts[0])).create);
    await inHost(
        lab,
        H,
        [
            `ip -6 addr add ${V6.host}/${V6.prefix} dev eth0`,
            `ip route add 198.51.100.0/24 via ${lab.external.ip} dev eth0 proto static metric 50`,
            `ip -6 route add ${V6.route} via ${V6.external} dev eth0 metric 512`,
        ].join(" && "),
    );
    await run(["ip", "netns", "exec", lab.external.ns, "ip", "-6", "addr", "add", `${V6.external}/${V6.prefix}`, "dev", "eth0", "nodad"]);
    // Settled means no tentative address is left: read the reference state only then. (Comparing
    // two reads instead raced with DAD ending between them: the second had lost "tentative".)
    const deadline = Date.now() + 10_000;
    while ((await inHost(lab, H, "ip -6 -o addr show dev eth0 tentative")).trim() !== "" && Date.now() < deadline)
        await new Promise((r) => setTimeout(r, 200));
    eth0Before = await nicState("eth0");
    assert.equal(eth0Before.addresses.length, 2, "an IPv4 and an IPv6 address on eth0");
    assert.ok(
        eth0Before.routes.some((r) => r.startsWith(V6.route)),
        "an IPv6 static route on eth0",
    );
});
after(async () => {
    await down(ID);
});

for (const step of ["bridge-add", "ingress-filter", "port-add", "address-move", "route-move", "address-release", "confirm-arm"]) {
    test(`a failure after step ${step} undoes the move: eth0 as before, the host answers SSH`, async () => {
        assert.ok((scripts.MOVE_STEPS as readonly string[]).includes(step));
        await setHook("failAt", step);
        const r = await runScript(lab, H, move().create);
        await setHook("failAt", undefined);
        assert.notEqual(r.code, 0);
        assert.match(r.stderr, new RegExp(`injected failure after step ${step} `));
        assert.match(r.stderr, new RegExp(`error: moving eth0 onto breth0 failed at step ${step}; undone`));
        await expectNicState("eth0", eth0Before, `eth0 after a failure at ${step}`);
        assert.equal((await runOk(lab, H, "hostname")).stdout.trim(), H, "a new SSH login over eth0");
        assert.equal((await runScript(lab, H, `test -e ${stateFile("pending")}`)).code, 1, "nothing left to confirm");
        assert.equal(await watcherRunning(), false, "no watcher left");
    });
}

test("a move nobody confirms undoes itself when its time is up; the late confirmation fails naming it", async () => {
    // Long enough that, on a loaded machine, the watcher still runs when it is looked for below.
    await setHook("confirmSeconds", "6");
    const r = await runOk(lab, H, move().create);
    await setHook("confirmSeconds", undefined);
    const token = tokenOf(r.stdout);
    assert.match(token, /^[0-9a-f-]{36}$/);
    assert.equal((await nicState("eth0")).ovsBridge, "breth0", "moved");
    assert.equal(await watcherRunning(), true);
    // Bounded: 6 s of confirmation time, then the undo itself.
    await expectNicState("eth0", eth0Before, "eth0 back without any login", 20);
    assert.match((await inHost(lab, H, `cat ${stateFile("reverted")}`)).trim(), new RegExp(`^${token} \\S+ restored$`));
    const late = await runScript(lab, H, confirm(token));
    assert.notEqual(late.code, 0);
    assert.match(late.stderr, /the move of eth0 onto breth0 was undone at \S+ \(restored\): no new SSH login confirmed it in time/);
    assert.match(late.stderr, /replace node1-gw-bridge/);
});

test("a confirmed move stays: IPv4 and IPv6 addresses and routes on breth0, tagged as ours; delete restores eth0", async () => {
    const r = await runOk(lab, H, move().create);
    const token = tokenOf(r.stdout);
    assert.equal(scripts.parseNicMac(r.stdout), (await inHost(lab, H, "cat /sys/class/net/eth0/address")).trim());
    const onBridge = await nicState("breth0");
    assert.deepEqual(onBridge.addresses, eth0Before.addresses);
    assert.deepEqual(
        onBridge.routes.filter((x) => !/proto kernel/.test(x)),
        eth0Before.routes.filter((x) => !/proto kernel/.test(x)),
    );
    assert.deepEqual((await nicState("eth0")).addresses, []);
    assert.equal((await inHost(lab, H, `ovs-vsctl get Bridge breth0 'external_ids:"${scripts.BRIDGE_OWNER_KEY}"'`)).trim(), '"node1/eth0"');
    // IPv6 over the moved path: the external namespace reaches the host's IPv6 address on breth0.
    const ping6 = await run(["ip", "netns", "exec", lab.external.ns, "ping", "-6", "-c", "1", "-W", "2", V6.host]);
    assert.equal(ping6.code, 0, ping6.stderr);
    // The confirmation: a new SSH login over breth0 disarms the watcher.
    assert.match((await runOk(lab, H, confirm(token))).log, /confirmed over a new SSH login/);
    assert.equal(await watcherRunning(), false);
    assert.equal((await runScript(lab, H, `test -e ${stateFile("pending")}`)).code, 1);
    assert.match((await runOk(lab, H, confirm(token))).log, /confirmed already/, "a repeated confirmation is fine");
    // A re-run changes nothing, so there is nothing to confirm.
    const again = await runOk(lab, H, move().create);
    assert.equal(tokenOf(again.stdout), "none");
    assert.equal(await watcherRunning(), false);
    await runOk(lab, H, confirm("none"));
    assert.deepEqual((await nicState("breth0")).addresses, onBridge.addresses);
    await runOk(lab, H, move().delete!);
    await expectNicState("eth0", eth0Before, "eth0 after delete");
});

test("a bridge another move resource takes over (tunnel bridge → gateway): the old delete leaves it, the new one's undoes it", async () => {
    const first = await runOk(lab, H, move().create);
    await runOk(lab, H, confirm(tokenOf(first.stdout)));
    const onBridge = await nicState("breth0");
    const gateway = scripts.gatewayBridgeScript(shared(), "netdev", "node1-gateway-bridge");
    const taken = await runOk(lab, H, gateway.create);
    assert.equal(tokenOf(taken.stdout), "none", "nothing moved: the NIC is in place");
    assert.match(taken.log, new RegExp(`taken over from ${scripts.defaultMoveResource(shared())}`));
    assert.equal(
        (await inHost(lab, H, `ovs-vsctl get Bridge breth0 'external_ids:"${scripts.BRIDGE_CLAIM_KEY}"'`)).trim().replace(/"/g, ""),
        "node1-gateway-bridge",
    );
    const old = await runOk(lab, H, move().delete!);
    assert.match(old.log, /held by node1-gateway-bridge now: eth0 left on it/);
    assert.deepEqual(await nicState("breth0"), onBridge, "the old delete changed nothing");
    assert.equal((await runScript(lab, H, `test -e ${scripts.nicPiece("eth0")}`)).code, 0, "the boot piece stays");
    await runOk(lab, H, gateway.delete!);
    await expectNicState("eth0", eth0Before, "eth0 after the new holder's delete");
});

test("an untagged bridge of that name is someone else's: create refuses and changes nothing, delete leaves it", async () => {
    await inHost(lab, H, "ovs-vsctl add-br breth0 -- set Bridge breth0 datapath_type=netdev fail_mode=secure");
    const r = await runScript(lab, H, move().create);
    assert.notEqual(r.code, 0);
    assert.match(
        r.stderr,
        /OVS bridge breth0 exists and is not this project's bridge for eth0 \(external_ids:ovn-kubernetes-as-code:owner is absent, expected node1\/eth0\); refusing to change it/,
    );
    assert.equal((await inHost(lab, H, "ovs-vsctl get Bridge breth0 fail_mode")).trim(), "secure", "not reconfigured");
    assert.equal((await nicState("eth0")).ovsBridge, "", "eth0 not moved");
    const del = await runOk(lab, H, move().delete!);
    assert.match(del.log, /left as it is/);
    assert.equal((await inHost(lab, H, "ovs-vsctl br-exists breth0 && echo yes")).trim(), "yes", "not deleted");
    // Tagged for another NIC: still not ours.
    await inHost(lab, H, `ovs-vsctl set Bridge breth0 'external_ids:"${scripts.BRIDGE_OWNER_KEY}"="node1/eth9"'`);
    assert.match((await runScript(lab, H, move().create)).stderr, /is node1\/eth9, expected node1\/eth0/);
    await inHost(lab, H, "ovs-vsctl del-br breth0");
    await expectNicState("eth0", eth0Before, "eth0 untouched");
});

test("a bridge named like an existing network interface is refused before anything changes", async () => {
    await inHost(lab, H, "ip link add xnic0 type veth peer name xnic0-peer");
    const script = scripts.gatewayBridgeScript(gatewayModel("shared", { node: H, interface: "eth0", bridge: "xnic0" }), "netdev");
    const r = await runScript(lab, H, script.create);
    assert.notEqual(r.code, 0);
    assert.match(r.stderr, /xnic0 is an existing network interface, not an OVS bridge/);
    await expectNicState("eth0", eth0Before, "eth0 untouched");
    await inHost(lab, H, "ip link del xnic0");
});

test("a dedicated NIC carrying the SSH session's address is refused before anything changes", async () => {
    const script = scripts.gatewayBridgeScript(gatewayModel("dedicated", { node: H, interface: "eth0", bridge: "breth0" }), "netdev");
    const r = await runScript(lab, H, script.create);
    assert.notEqual(r.code, 0);
    assert.match(
        r.stderr,
        new RegExp(`dedicated gateway NIC eth0 carries ${lab.hosts[0].ip.replace(/\./g, "\\.")}, the address this SSH session uses`),
    );
    await expectNicState("eth0", eth0Before, "eth0 untouched");
    assert.equal((await runOk(lab, H, "hostname")).stdout.trim(), H);
});
