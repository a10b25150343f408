// A VTEP gateway end to end, Pulumi mode, on bare local hosts: node4 emulates a hardware VTEP
// (ovs-vtep) bound to OVN by ovn-controller-vtep; behind its port eth1 a "physical server"
// namespace sends VLAN 100, bound to node1's logical switch. The server pings node1's management
// port and a pod on that switch through the VTEP's VXLAN tunnel to node1, and a port of that switch
// on node2 through its tunnel to node2; VLAN 200 of the same port reaches nothing. Then a second up
// and a refresh change nothing, the boot entry brings back killed daemons and a dropped database, a
// vtep port changed by hand and a VLAN binding removed by hand on the VTEP are each reported by
// refresh and restored by the next up, an up that removes the binding cuts the server off, and
// destroy leaves the VTEP host as it was.
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { promisify } from "node:util";
import { after, before, test } from "node:test";
import YAML from "yaml";
import { hostExec, startPod, stopPod, type LocalPod } from "../../lab/localcluster";
import { bringUpPulumiLab, type PulumiLab } from "../../lab/scenarios/pulumiLab";
import { apply, destroy, refresh, type OperationResult } from "../../lab/offline/api";
import { addressAt, parseNetwork } from "../../components/values";
import { readStackFile } from "../../components/config/stackFile";
import { validateConfig } from "../../components/plan/validate";
import { buildClusterModel } from "../../components/model/clusterModel";
import { scriptBundle } from "../../components/hosts/scripts/bundle";

const ID = "vtep";
const OWNER = `ovn-kubernetes/local-${ID}`;
const VTEP = "node4";
const PHYSICAL_SWITCH = "tor1";
const PORT = `vtep-${PHYSICAL_SWITCH}-node1`;
/** The VTEP's bindings resource (component `ovn`). */
const BINDINGS = `ovn-${VTEP}-vtep-bindings`;
// The server's namespace: named with the lab's prefix, so `down` removes it too.
const SERVER = `lc-${ID}-srva`;
const exec = promisify(execFile);

let lab: PulumiLab;
let pod: LocalPod | undefined;
/** A port of node1's switch whose pod runs on node2. */
let far: LocalPod | undefined;
let before_: HostSnapshot;

const sh = async (host: string, argv: string[]) => {
    const r = await hostExec(lab.cluster, host, argv);
    assert.equal(r.code, 0, `${host}: ${argv.join(" ")}: ${r.stderr}`);
    return r.stdout;
};
const root = async (...argv: string[]) => (await exec(argv[0], argv.slice(1), { encoding: "utf8" })).stdout;
const inNs = (ns: string, ...argv: string[]) => root("ip", "netns", "exec", ns, ...argv);
const VLAN_PING = path.join(__dirname, "support", "vlanPing.py");
/** One VLAN of the server's wire (no 8021q module here: tagged frames on a packet socket, ./support/vlanPing.py). */
const pingFrom = async (vlan: number, target: string, seconds = 4) => {
    const net = node1();
    const me = addressAt(parseNetwork(net.subnet), vlan === 100 ? 200 : 201);
    // Its peers share its subnet (traffic from a VTEP is switched, not routed: docs/vtep.md).
    try {
        await inNs(SERVER, "python3", VLAN_PING, "eth0", String(vlan), me, target, target, String(seconds));
        return true;
    } catch {
        return false;
    }
};
/** Retries: the first overlay packets to a new peer may be dropped while flows and MACs settle. */
async function pingsWithin(vlan: number, ip: string, tries = 8): Promise<boolean> {
    for (let i = 0; i < tries; i++) if (await pingFrom(vlan, ip)) return true;
    return false;
}
/** The change may take a moment to reach the flows: cut off once a ping fails. */
async function cutOff(): Promise<boolean> {
    for (let i = 0; i < 5; i++) if (!(await pingFrom(100, node1().mgmt.ip, 2))) return true;
    return false;
}
/** What the VTEP and OVN hold for the binding: the message of a failed reachability check. */
async function bindingState(): Promise<string> {
    const out = async (host: string, argv: string[]) => {
        const r = await hostExec(lab.cluster, host, argv);
        return `${argv.join(" ")}:\n${r.stdout}${r.stderr}`;
    };
    return [
        await out(central(), ["ovn-sbctl", "--columns=logical_port,tunnel_key,chassis,up", "find", "Port_Binding", "type=vtep"]),
        await out(VTEP, ["vtep-ctl", "--columns=name,tunnel_key", "list", "Logical_Switch"]),
        await out(VTEP, ["vtep-ctl", "list-remote-macs", "node1"]),
        await out(VTEP, ["vtep-ctl", "list-local-macs", "node1"]),
        await out(VTEP, ["ovs-vsctl", "--columns=name,options", "find", "Interface", "type=vxlan"]),
    ].join("\n");
}
/** Waits (bounded) until the VTEP's remote MACs of node1's switch send `mac` through the tunnel to `ip`. */
async function pollRemoteMac(mac: string, ip: string): Promise<boolean> {
    for (let i = 0; i < 40; i++) {
        if ((await sh(VTEP, ["vtep-ctl", "list-remote-macs", "node1"])).includes(`${mac} -> vxlan_over_ipv4/${ip}`)) return true;
        await new Promise((r) => setTimeout(r, 250));
    }
    return false;
}
const changed = (r: OperationResult) => r.ops.filter((o) => o.op !== "same").map((o) => `${o.op} ${o.name}`);
const central = () => lab.model.hosts.find((h) => h.isCentral)!.name;
const node1 = () => lab.model.nodeNetworks.find((n) => n.node === "node1")!;

/** Rewrites node4 in the stack file: a VTEP whose port eth1 carries these VLAN bindings. */
function writeVtep(bindings: { vlan: number; logicalSwitch: string }[]): void {
    const file = lab.options.stackFile!;
    const doc = YAML.parse(fs.readFileSync(file, "utf8"));
    const nodes = doc.config["ovn-kubernetes:nodes"] as Record<string, unknown>[];
    const n = nodes.find((x) => x.name === VTEP)!;
    delete n.gateway;
    n.roles = ["vtep"];
    n.vtep = { physicalSwitch: PHYSICAL_SWITCH, ports: [{ name: "eth1", bindings }] };
    fs.writeFileSync(file, YAML.stringify(doc, { lineWidth: 0 }));
    lab.model = buildClusterModel(validateConfig(readStackFile(file)));
}

/** What destroy must give back on the VTEP host: links, eth0's address, files, daemons. */
interface HostSnapshot {
    links: string[];
    eth0: string;
    files: string[];
    daemons: string[];
}
// Open vSwitch itself stays after destroy (the project never stops it); these are its own files.
const OVS_OWN = new Set(["conf.db", ".conf.db.~lock~", "system-id.conf"]);
async function snapshot(): Promise<HostSnapshot> {
    const links = (await sh(VTEP, ["ip", "-o", "link", "show"])).split("\n").flatMap((l) => l.match(/^\d+: ([^:@]+)/)?.[1] ?? []);
    const eth0 = (await sh(VTEP, ["ip", "-4", "-o", "addr", "show", "dev", "eth0"])).match(/inet (\S+)/)?.[1] ?? "";
    // The host's own /etc/openvswitch; a Debian 12 lab host shares the rest of /etc and /usr with this machine and other labs.
    const files = (await sh(VTEP, ["find", "/etc/openvswitch", "-maxdepth", "2"]))
        .split("\n")
        .filter((f) => f && !OVS_OWN.has(f.split("/").pop()!));
    // Daemons by their pidfiles and control sockets in the host's own /run (the machine's process list is shared).
    const daemons = (await sh(VTEP, ["sh", "-c", "ls /var/run/openvswitch /var/run/ovn 2>/dev/null || true"]))
        .split("\n")
        .filter((f) => f && !f.endsWith(":") && !/^(ovsdb-server|ovs-vswitchd|db\.sock)/.test(f));
    return { links: links.sort(), eth0, files: files.sort(), daemons: daemons.sort() };
}

before(async () => {
    lab = await bringUpPulumiLab(ID, 4);
    writeVtep([{ vlan: 100, logicalSwitch: "node1" }]);
    // The physical server: a veth from its namespace to the VTEP's eth1, a trunk of VLANs 100 and 200.
    const vtepNetns = lab.cluster.hosts.find((h) => h.name === VTEP)!.netns;
    await root("ip", "netns", "add", SERVER);
    await root("ip", "link", "add", `lc-${ID}-sv`, "type", "veth", "peer", "name", `lc-${ID}-sp`);
    await root("ip", "link", "set", `lc-${ID}-sp`, "netns", vtepNetns);
    await sh(VTEP, ["ip", "link", "set", `lc-${ID}-sp`, "name", "eth1"]);
    await root("ip", "link", "set", `lc-${ID}-sv`, "netns", SERVER);
    await inNs(SERVER, "ip", "link", "set", `lc-${ID}-sv`, "name", "eth0");
    await inNs(SERVER, "ip", "link", "set", "eth0", "up");
    before_ = await snapshot();
});

after(async () => {
    if (lab) await lab.close();
});

test("apply: the VTEP's chassis speaks vxlan, every chassis lists vxlan, the vtep port is bound", async () => {
    const r = await apply(lab.options);
    assert.equal(r.ok, true, r.error);
    const vtepIp = lab.cluster.hosts.find((h) => h.name === VTEP)!.ip;
    const vxlan = (await sh(central(), ["ovn-sbctl", "--bare", "--columns=ip", "find", "Encap", "type=vxlan"])).split("\n").filter(Boolean);
    assert.ok(vxlan.includes(vtepIp), `vxlan encaps ${vxlan.join(",")}`);
    assert.equal((await sh("node2", ["ovs-vsctl", "get", "Open_vSwitch", ".", "external_ids:ovn-encap-type"])).trim(), '"geneve,vxlan"');
    const [type, portOptions] = (
        await sh(central(), ["ovn-nbctl", "--bare", "--columns=type,options", "find", "Logical_Switch_Port", `name=${PORT}`])
    )
        .trim()
        .split("\n")
        .filter(Boolean);
    assert.equal(type, "vtep");
    assert.match(portOptions, new RegExp(`vtep-logical-switch=node1 vtep-physical-switch=${PHYSICAL_SWITCH}`));
    assert.equal(
        (await sh(central(), ["ovn-nbctl", "get", "Logical_Switch_Port", PORT, `external_ids:pulumi-owner`])).trim(),
        `"${OWNER}"`,
    );
    // vxlan_mode came with OVN 24.09: set there, absent before (Debian 12's 23.03), where the limit is stated.
    const version = (await sh(central(), ["ovn-northd", "--version"])).split("\n")[0].split(" ").pop()!;
    const [major, minor] = version.split(".").map(Number);
    const options = await sh(central(), ["ovn-nbctl", "get", "NB_Global", ".", "options"]);
    if (major * 100 + minor >= 2409) assert.match(options, /vxlan_mode="?false/);
    else assert.doesNotMatch(options, /vxlan_mode/);
    assert.match(await sh(VTEP, ["vtep-ctl", "list-bindings", PHYSICAL_SWITCH, "eth1"]), /0100 node1/);
});

test("the physical server on VLAN 100 reaches node1's management port and a pod on node1's switch; VLAN 200 reaches nothing", async () => {
    pod = await startPod(lab.cluster, lab.model, "node1", "vtep", "pod-a", 10);
    assert.ok(await pingsWithin(100, node1().mgmt.ip), `server → ${node1().mgmt.ip}`);
    assert.ok(await pingsWithin(100, pod.ip), `server → pod ${pod.ip}`);
    assert.equal(await pingFrom(200, node1().mgmt.ip), false, "VLAN 200 reached the management port");
});

test("the server reaches a port of node1's switch on node2 through the VTEP's tunnel to node2", async () => {
    far = await startPod(lab.cluster, lab.model, "node1", "vtep", "pod-far", 11, "node2");
    const node2Ip = lab.cluster.hosts.find((h) => h.name === "node2")!.ip;
    // ovn-controller-vtep tells the VTEP where each MAC of the switch lives: this one behind node2.
    const located = await pollRemoteMac(far.mac, node2Ip);
    assert.ok(located, `${far.mac} → vxlan_over_ipv4/${node2Ip} missing:\n${await bindingState()}`);
    const reached = await pingsWithin(100, far.ip);
    assert.ok(reached, reached ? "" : `server → ${far.ip} on node2\n${await bindingState()}`);
});

test("a second apply and a refresh change nothing", async () => {
    const r = await apply(lab.options);
    assert.equal(r.ok, true, r.error);
    assert.deepEqual(changed(r), []);
    const seen = await refresh({ ...lab.options, dryRun: true });
    assert.equal(seen.ok, true, seen.error);
    assert.deepEqual(seen.drift, []);
});

test("after the VTEP's daemons die and its database is dropped, the boot entry's program brings them back", async () => {
    await sh(VTEP, [
        "bash",
        "-c",
        // A reboot also empties /run: the killed daemons' control sockets go with it.
        "kill -9 $(cat /var/run/ovn/ovn-controller-vtep.pid) $(cat /var/run/openvswitch/ovs-vtep.pid) && ovs-appctl -t ovsdb-server ovsdb-server/remove-db hardware_vtep && rm -f /var/run/ovn/ovn-controller-vtep.* /var/run/openvswitch/ovs-vtep.*",
    ]);
    const running = async () => (await hostExec(lab.cluster, VTEP, ["ovs-appctl", "-t", "ovs-vtep", "version"])).code === 0;
    for (let i = 0; i < 20 && (await running()); i++) await new Promise((r) => setTimeout(r, 250));
    assert.equal(await running(), false, "ovs-vtep survived kill -9");
    // What a boot runs after Open vSwitch: the program of this bundle (a Debian 12 lab host shares
    // this machine's /usr/local/sbin, which other stacks' programs may occupy).
    const boot = await hostExec(lab.cluster, VTEP, ["bash", `${scriptBundle().dir}/boot-program`, "start"]);
    assert.equal(boot.code, 0, boot.stderr);
    assert.match(boot.stderr, new RegExp(`VTEP ${PHYSICAL_SWITCH}: ovs-vtep and ovn-controller-vtep started`));
    assert.match(await sh(VTEP, ["ovs-appctl", "-t", "ovsdb-server", "ovsdb-server/list-dbs"]), /hardware_vtep/);
    assert.match(await sh(VTEP, ["vtep-ctl", "list-bindings", PHYSICAL_SWITCH, "eth1"]), /0100 node1/);
    assert.ok(await pingsWithin(100, node1().mgmt.ip), "server → management port after the restart");
});

test("drift: the vtep port's addresses cleared by hand cut the server off, are reported by refresh and restored by the next apply", async () => {
    // A changed port, not a deleted one: deleting unbinds the VTEP's logical switch, and ovs-vtep
    // may then keep a tunnel on key 0 (docs/vtep.md, "Unbinding and binding again").
    await sh(central(), ["ovn-nbctl", "lsp-set-addresses", PORT]);
    assert.ok(await cutOff(), "the server still reaches the management port without addresses=unknown");
    const seen = await refresh({ ...lab.options, dryRun: true });
    assert.equal(seen.ok, true, seen.error);
    assert.deepEqual(
        seen.drift.map((d) => d.name),
        [`ovn-${VTEP}-vtep-gateway`],
    );
    const fixed = await apply({ ...lab.options, refresh: true });
    assert.equal(fixed.ok, true, fixed.error);
    assert.deepEqual(changed(fixed), [`update ovn-${VTEP}-vtep-gateway`]);
    assert.equal((await sh(central(), ["ovn-nbctl", "lsp-get-addresses", PORT])).trim(), "unknown");
    const reached = await pingsWithin(100, node1().mgmt.ip);
    assert.ok(reached, reached ? "" : `server → management port after the repair\n${await bindingState()}`);
});

test("drift: a VLAN binding removed by hand on the VTEP cuts the server off, is reported by refresh and restored by the next apply", async () => {
    await sh(VTEP, ["vtep-ctl", "unbind-ls", PHYSICAL_SWITCH, "eth1", "100"]);
    assert.ok(await cutOff(), "the server still reaches the management port without its binding");
    const seen = await refresh({ ...lab.options, dryRun: true });
    assert.equal(seen.ok, true, seen.error);
    assert.deepEqual(
        seen.drift.map((d) => d.name),
        [BINDINGS],
    );
    const fixed = await apply({ ...lab.options, refresh: true });
    assert.equal(fixed.ok, true, fixed.error);
    assert.deepEqual(changed(fixed), [`update ${BINDINGS}`]);
    assert.match(await sh(VTEP, ["vtep-ctl", "list-bindings", PHYSICAL_SWITCH, "eth1"]), /0100 node1/);
    const reached = await pingsWithin(100, node1().mgmt.ip);
    assert.ok(reached, reached ? "" : `server → management port after the binding's repair\n${await bindingState()}`);
});

test("one apply without the binding unbinds VLAN 100 and removes the port: the server is cut off", async () => {
    writeVtep([]);
    const r = await apply(lab.options);
    assert.equal(r.ok, true, r.error);
    assert.deepEqual(changed(r).sort(), [`update ${BINDINGS}`, `update ovn-${VTEP}-vtep-gateway`]);
    assert.equal((await sh(VTEP, ["vtep-ctl", "list-bindings", PHYSICAL_SWITCH, "eth1"])).trim(), "");
    assert.equal(
        (await sh(central(), ["ovn-nbctl", "--bare", "--columns=_uuid", "find", "Logical_Switch_Port", `name=${PORT}`])).trim(),
        "",
    );
    assert.ok(await cutOff(), "the server still reaches the management port");
});

test("destroy leaves the VTEP host as it was", async () => {
    for (const p of [pod, far]) if (p) await stopPod(lab.cluster, lab.model, p.node, p.namespace, p.pod);
    const r = await destroy(lab.options);
    assert.equal(r.ok, true, r.error);
    assert.deepEqual(await snapshot(), before_);
    assert.equal((await sh(VTEP, ["ovs-vsctl", "list-br"])).trim(), "");
    assert.deepEqual((await sh(VTEP, ["ovs-appctl", "-t", "ovsdb-server", "ovsdb-server/list-dbs"])).trim().split("\n"), [
        "Open_vSwitch",
        "_Server",
    ]);
});
