// Pods plugged into a host's br-int the way the CNI does it, on real OVS (userspace datapath)
// started inside two hosts with their default paths. No OVN here: a bridge without a controller
// switches like a learning switch, which is enough to see the wiring work.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { addPod, down, hostExec, ping, podExec, removePod, up } from "../../lab/localcluster";
import type { LocalCluster, PodNetwork } from "../../lab/localcluster";
import { leftovers, processesIn, stillRunning } from "./leftovers";

const ID = "lcpod";
let cluster: LocalCluster;

// What a host's packages and service scripts would do, with every path left at its default.
const START_OVS = `set -e
ovsdb-tool create /etc/openvswitch/conf.db /usr/share/openvswitch/vswitch.ovsschema
mkdir -p /run/openvswitch
ovsdb-server --remote=punix:/run/openvswitch/db.sock --pidfile --detach --log-file
ovs-vsctl --no-wait init
ovs-vswitchd --pidfile --detach --log-file 2>/dev/null
ovs-vsctl add-br br-int -- set bridge br-int datapath_type=netdev fail_mode=standalone`;

const podNet = (last: number): PodNetwork => ({
    ip: `10.128.1.${last}`,
    mac: `0a:58:0a:80:01:${last.toString(16).padStart(2, "0")}`,
    gatewayIp: "10.128.1.1",
    prefixLen: 24,
    mtu: 1400,
});

before(async () => {
    await down(ID);
    cluster = await up({ id: ID, hosts: 2 });
    for (const h of cluster.hosts) {
        const r = await hostExec(cluster, h.name, START_OVS);
        assert.equal(r.code, 0, `${h.name}: ${r.stderr}`);
    }
});

after(async () => {
    await down(ID);
});

test("each host runs its own OVS with default paths", async () => {
    const ids = [];
    for (const h of cluster.hosts) {
        const r = await hostExec(cluster, h.name, ["ovs-vsctl", "get", "open_vswitch", ".", "_uuid"]);
        assert.equal(r.code, 0, r.stderr);
        ids.push(r.stdout.trim());
        const bridges = await hostExec(cluster, h.name, ["ovs-vsctl", "list-br"]);
        assert.equal(bridges.stdout.trim(), "br-int");
    }
    assert.notEqual(ids[0], ids[1], "two databases, not one shared");
});

test("addPod plugs the pod into br-int with the CNI's external_ids and configures the pod side", async () => {
    const pod = await addPod(cluster, "node1", "default", "web-1", podNet(3));
    assert.equal(pod.ifaceId, "default_web-1");

    const ext = await hostExec(cluster, "node1", [
        "ovs-vsctl",
        "--format=json",
        "--columns=external_ids",
        "find",
        "interface",
        `name=${pod.hostIface}`,
    ]);
    assert.equal(ext.code, 0, ext.stderr);
    const map = Object.fromEntries(JSON.parse(ext.stdout).data[0][0][1] as Array<[string, string]>);
    assert.deepEqual(map, { "iface-id": "default_web-1", attached_mac: "0a:58:0a:80:01:03", ip_address: "10.128.1.3/24" });
    const ports = await hostExec(cluster, "node1", ["ovs-vsctl", "list-ports", "br-int"]);
    assert.deepEqual(ports.stdout.trim().split("\n"), [pod.hostIface]);

    const link = await podExec(cluster, pod, ["ip", "-o", "link", "show", "eth0"]);
    assert.match(link.stdout, /mtu 1400 /);
    assert.match(link.stdout, /link\/ether 0a:58:0a:80:01:03 /);
    const addr = await podExec(cluster, pod, ["ip", "-o", "-4", "addr", "show", "eth0"]);
    assert.match(addr.stdout, /inet 10\.128\.1\.3\/24 /);
    const route = await podExec(cluster, pod, ["ip", "route", "show", "default"]);
    assert.match(route.stdout, /default via 10\.128\.1\.1 dev eth0/);
    const offload = await podExec(cluster, pod, ["ethtool", "-k", "eth0"]);
    assert.match(offload.stdout, /tx-checksumming: off/);
});

test("two pods on one host's br-int reach each other; a pod on another host has its own br-int", async () => {
    const a = { node: "node1", namespace: "default", pod: "web-1" };
    await addPod(cluster, "node1", "default", "web-2", podNet(4));
    const c = await addPod(cluster, "node2", "default", "web-3", podNet(5));
    assert.equal(await ping(cluster, a, "10.128.1.4"), true);
    // Not connected without OVN's tunnels: the pod on node2 is out of reach.
    assert.equal(await ping(cluster, a, "10.128.1.5", 2), false);
    const node2Ports = await hostExec(cluster, "node2", ["ovs-vsctl", "list-ports", "br-int"]);
    assert.deepEqual(node2Ports.stdout.trim().split("\n"), [c.hostIface]);
    const node1Ports = await hostExec(cluster, "node1", ["ovs-vsctl", "list-ports", "br-int"]);
    assert.equal(node1Ports.stdout.includes(c.hostIface), false);
});

test("invalid pod input is refused before anything is created", async () => {
    await assert.rejects(addPod(cluster, "node1", "Default", "x", podNet(9)), /invalid namespace/);
    await assert.rejects(addPod(cluster, "node1", "default", "x;rm", podNet(9)), /invalid pod name/);
    await assert.rejects(addPod(cluster, "node1", "default", "x", { ...podNet(9), gatewayIp: "10.0.0.1" }), /outside 10\.128\.1\.0\/24/);
    await assert.rejects(addPod(cluster, "node1", "default", "x", { ...podNet(9), mac: "01:00:5e:00:00:01" }), /unicast MAC/);
    await assert.rejects(addPod(cluster, "node9", "default", "x", podNet(9)), /no host "node9"/);
    await assert.rejects(addPod(cluster, "node1", "default", "web-1", podNet(9)), /already exists/);
    assert.equal(leftovers(ID).netns.filter((n) => n.includes("_x")).length, 0);
});

test("removePod takes the port off br-int and removes the pod's namespace", async () => {
    await removePod(cluster, "node1", "default", "web-2");
    const ports = await hostExec(cluster, "node1", ["ovs-vsctl", "list-ports", "br-int"]);
    assert.equal(ports.stdout.trim().split("\n").length, 1);
    assert.equal(
        leftovers(ID).netns.some((n) => n.endsWith("_default_web-2")),
        false,
    );
    assert.equal(await ping(cluster, { node: "node1", namespace: "default", pod: "web-1" }, "10.128.1.4", 2), false);
    await removePod(cluster, "node1", "default", "web-2"); // DEL twice is fine, as CNI requires
});

test("down ends the OVS daemons started inside the hosts and removes the pods' namespaces", async () => {
    const marks = processesIn(leftovers(ID).netns);
    const daemons = await hostExec(cluster, "node1", ["cat", "/run/openvswitch/ovsdb-server.pid", "/run/openvswitch/ovs-vswitchd.pid"]);
    const daemonPids = daemons.stdout.trim().split("\n").map(Number);
    assert.ok(
        daemonPids.every((p) => marks.some((m) => m.pid === p)),
        "the daemons were among the host's processes",
    );
    await down(ID);
    assert.deepEqual(stillRunning(marks), []);
    assert.deepEqual(leftovers(ID), { netns: [], links: [], mounts: [] });
});
