// Real hosts (local cluster, real sshd): packages, Open vSwitch, the OVN central, chassis and a
// management port, each script run over SSH the way remote.Command runs it.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { down } from "../../lab/localcluster";
import type { LocalCluster } from "../../lab/localcluster";
import * as scripts from "../../components/hosts/scripts";
import { SECRETS, centralModel, hostModel, nodeNetworkModel } from "./fixtures";
import { externalId, inHost, labHost, ovsdbAddresses, startLab } from "./support/lab";
import { runOk, runScript } from "./support/remote";

const ID = "hostsovn";
let lab: LocalCluster;
const systemIds = new Map<string, string>();

before(async () => {
    lab = await startLab(ID, 2);
});
after(async () => {
    await down(ID);
});

const central = () => lab.hosts[0];
const sbctl = (args: string) => `ovn-sbctl --timeout=10 --db=tcp:${central().ip}:6642 ${args}`;

test("packages: already installed at the pinned version → nothing to do, no network needed", async () => {
    const version = (await inHost(lab, "node1", "dpkg-query -W -f='${Version}' openvswitch-switch")).trim();
    const host = hostModel({
        name: "node1",
        packages: ["openvswitch-common", "openvswitch-switch", "ovn-common", "ovn-central", "ovn-host"],
    });
    const r = await runOk(lab, "node1", scripts.packagesScript(host, { openvswitchVersion: version }).create);
    assert.match(r.log, /packages already installed/);
    const skipped = await runOk(lab, "node1", scripts.packagesScript(host, { skip: true }).create);
    assert.match(skipped.log, /skipped/);
});

test("Open vSwitch starts on bare hosts; a second run leaves the daemons alone", async () => {
    for (const h of lab.hosts) {
        assert.notEqual((await runScript(lab, h.name, "ovs-vsctl --timeout=2 show")).code, 0, "bare host runs no OVS");
        await runOk(lab, h.name, scripts.ovsStartScript(labHost(h)).create);
        const pid = await inHost(lab, h.name, "cat /var/run/openvswitch/ovs-vswitchd.pid");
        const again = await runOk(lab, h.name, scripts.ovsStartScript(labHost(h)).create);
        assert.match(again.log, /already running/);
        assert.equal(await inHost(lab, h.name, "cat /var/run/openvswitch/ovs-vswitchd.pid"), pid);
    }
});

test("central on node1: NB and SB answer over tcp from node2, bound to node1's address only", async () => {
    const model = centralModel(false, central().ip);
    await runOk(lab, "node1", scripts.centralScript(model).create);
    const listening = await inHost(lab, "node1", "ss -Hltn");
    assert.match(listening, new RegExp(`${central().ip.replace(/\./g, "\\.")}:6641`));
    assert.match(listening, new RegExp(`${central().ip.replace(/\./g, "\\.")}:6642`));
    assert.doesNotMatch(listening, /(0\.0\.0\.0|\*|\[::\]):664[12]/);
    await inHost(lab, "node2", `ovn-nbctl --timeout=10 --db=tcp:${central().ip}:6641 show`);
    await inHost(lab, "node2", sbctl("show"));
    // Second run: the Connection row is kept (set-connection would have replaced it).
    const row = await inHost(lab, "node1", "ovn-nbctl --bare --columns=_uuid list Connection");
    await runOk(lab, "node1", scripts.centralScript(model).create);
    assert.equal(await inHost(lab, "node1", "ovn-nbctl --bare --columns=_uuid list Connection"), row);
});

test("chassis on every host: registered in the SB with its encap IP and type; system-id stable", async () => {
    for (const h of lab.hosts) {
        const r = await runOk(lab, h.name, scripts.chassisScript(labHost(h), ovsdbAddresses(central())).create);
        systemIds.set(h.name, scripts.parseSystemId(r.stdout));
    }
    const encaps = (await inHost(lab, "node2", sbctl("--format=csv --data=bare --no-headings --columns=chassis_name,type,ip list Encap")))
        .trim()
        .split("\n")
        .sort();
    assert.deepEqual(encaps, lab.hosts.map((h) => `${systemIds.get(h.name)},geneve,${h.ip}`).sort());
    for (const h of lab.hosts) {
        const again = await runOk(lab, h.name, scripts.chassisScript(labHost(h), ovsdbAddresses(central())).create);
        assert.equal(scripts.parseSystemId(again.stdout), systemIds.get(h.name));
        assert.equal((await inHost(lab, h.name, "cat /etc/openvswitch/system-id.conf")).trim(), systemIds.get(h.name));
        assert.equal(await externalId(lab, h.name, "ovn-encap-ip"), h.ip);
        assert.equal(await externalId(lab, h.name, "ovn-bridge-datapath-type"), "netdev");
    }
});

test("every managed key is present or absent as the model says", async () => {
    const h = lab.hosts[1];
    await runOk(lab, h.name, scripts.chassisScript(labHost(h, { bridgeMappings: "physnet:breth0" }), ovsdbAddresses(central())).create);
    assert.equal(await externalId(lab, h.name, "ovn-bridge-mappings"), "physnet:breth0");
    // https: the token and CA come from stdin into external_ids.
    const https = labHost(h, { k8sApiServer: "https://10.0.0.1:6443" });
    const stdin = scripts.encodeSecretLines({ "k8s-api-token": SECRETS.token, "k8s-ca-certificate": SECRETS.ca });
    const r = await runOk(lab, h.name, scripts.chassisScript(https, ovsdbAddresses(central())).create, stdin);
    assert.ok(!r.stdout.includes(SECRETS.token) && !r.stderr.includes(SECRETS.token), "the token is never printed");
    assert.equal(await externalId(lab, h.name, "k8s-api-token"), SECRETS.token);
    assert.equal(await externalId(lab, h.name, "k8s-ca-certificate"), SECRETS.ca.replace(/\n$/, ""));
    assert.equal(await externalId(lab, h.name, "ovn-bridge-mappings"), undefined, "a removed mapping is removed");
    // Without stdin the https model fails clearly and changes nothing.
    const noSecrets = await runScript(lab, h.name, scripts.chassisScript(https, ovsdbAddresses(central())).create);
    assert.notEqual(noSecrets.code, 0);
    assert.match(noSecrets.stderr, /secret k8s-api-token is required on stdin/);
    // Back to http: the secrets leave the host's database.
    await runOk(lab, h.name, scripts.chassisScript(labHost(h), ovsdbAddresses(central())).create);
    assert.equal(await externalId(lab, h.name, "k8s-api-token"), undefined);
    assert.equal(await externalId(lab, h.name, "k8s-ca-certificate"), undefined);
    assert.equal(await externalId(lab, h.name, "k8s-api-server"), "http://10.0.0.1:8080");
});

test("management port: interface on br-int with the model's MAC, IP, MTU and route; converges; delete removes it", async () => {
    const net = nodeNetworkModel({ node: "node2", mgmtPort: "k8s-node2", mgmtInterface: "k8s-node2", mtu: 1400 });
    const port = scripts.managementPortScript(net);
    await runOk(lab, "node2", port.create);
    await runOk(lab, "node2", port.create);
    const link = await inHost(lab, "node2", "ip -o link show dev k8s-node2");
    assert.match(link, /mtu 1400 /);
    assert.match(link, /link\/ether 0a:58:0a:80:01:02 /);
    assert.match(await inHost(lab, "node2", "ip -4 -o addr show dev k8s-node2"), /inet 10\.128\.1\.2\/24 /);
    assert.match(await inHost(lab, "node2", "ip -4 route show 10.128.0.0/14"), /via 10\.128\.1\.1 dev k8s-node2/);
    assert.equal((await inHost(lab, "node2", "ovs-vsctl port-to-br k8s-node2")).trim(), "br-int");
    assert.equal(
        (await inHost(lab, "node2", "ovs-vsctl get Interface k8s-node2 external_ids:iface-id")).trim().replace(/"/g, ""),
        "k8s-node2",
    );
    assert.equal((await inHost(lab, "node2", "ovs-vsctl get Interface k8s-node2 mac_in_use")).trim(), '"0a:58:0a:80:01:02"');
    // A new address and cluster subnet replace the old ones instead of adding to them.
    const moved = scripts.managementPortScript({
        ...net,
        mgmt: { ...net.mgmt, ip: "10.128.2.2", cidr: "10.128.2.2/24" },
        router: { ...net.router, ip: "10.128.2.1" },
        clusterSubnet: "10.128.0.0/15",
    });
    await runOk(lab, "node2", moved.create);
    assert.deepEqual((await inHost(lab, "node2", "ip -4 -o addr show dev k8s-node2 | awk '{print $4}'")).trim().split("\n"), [
        "10.128.2.2/24",
    ]);
    assert.deepEqual((await inHost(lab, "node2", "ip -4 route show dev k8s-node2 | grep -v 'proto kernel'")).trim().split("\n"), [
        "10.128.0.0/15 via 10.128.2.1",
    ]);
    await runOk(lab, "node2", port.delete!);
    assert.equal((await runScript(lab, "node2", "test -e /sys/class/net/k8s-node2")).code, 1);
    assert.equal((await inHost(lab, "node2", "ip -4 route show 10.128.0.0/15")).trim(), "");
    assert.equal((await inHost(lab, "node2", "ovs-vsctl list-ports br-int")).includes("k8s-node2"), false);
    await runOk(lab, "node2", port.delete!); // deleting twice is fine
});

test("ovnkube mode: the chassis writes only the keys ovnkube-node never writes, and leaves ovnkube's alone", async () => {
    const h = lab.hosts[1];
    // What ovnkube-node writes from its flags (facts: setupOVNNode, SetDBAuth, bridge mappings).
    const ovnkubeKeys = {
        "ovn-remote": `tcp:${central().ip}:6642`,
        "ovn-encap-ip": h.ip,
        "ovn-encap-type": "geneve",
        hostname: h.name,
        "ovn-bridge-mappings": "physnet:breth0",
    };
    await inHost(
        lab,
        h.name,
        `ovs-vsctl set Open_vSwitch . ${Object.entries(ovnkubeKeys)
            .map(([k, v]) => `external_ids:${k}=${v}`)
            .join(" ")}`,
    );
    const ovnkubeMode = labHost(h, {
        writer: "ovnkube",
        encapIp: "10.9.9.9",
        bridgeMappings: undefined,
        k8sApiServer: "https://10.0.0.1:6443",
    });
    const r = await runOk(lab, h.name, scripts.chassisScript(ovnkubeMode, ovsdbAddresses(central())).create);
    assert.equal(scripts.parseSystemId(r.stdout), systemIds.get(h.name));
    for (const [k, v] of Object.entries(ovnkubeKeys)) assert.equal(await externalId(lab, h.name, k), v, `${k} is ovnkube's`);
    assert.equal(await externalId(lab, h.name, "system-id"), systemIds.get(h.name));
    assert.equal(await externalId(lab, h.name, "ovn-bridge-datapath-type"), "netdev");
    assert.equal(await externalId(lab, h.name, "k8s-api-token"), undefined, "no Pulumi-mode k8s keys, no token needed on stdin");
    assert.equal((await runScript(lab, h.name, "ovn-appctl -t ovn-controller version")).code, 0, "ovn-controller runs");
});

test("chassis delete: leaves the SB, removes the OVN keys, keeps the system-id for a later rejoin", async () => {
    const h = lab.hosts[1];
    const chassis = scripts.chassisScript(labHost(h), ovsdbAddresses(central()));
    await runOk(lab, h.name, chassis.delete!);
    assert.equal((await inHost(lab, "node1", sbctl("--bare --columns=name list Chassis"))).includes(systemIds.get(h.name)!), false);
    assert.equal(await externalId(lab, h.name, "ovn-remote"), undefined);
    assert.equal(await externalId(lab, h.name, "system-id"), systemIds.get(h.name));
    const rejoin = await runOk(lab, h.name, chassis.create);
    assert.equal(scripts.parseSystemId(rejoin.stdout), systemIds.get(h.name));
    assert.ok((await inHost(lab, "node1", sbctl("--bare --columns=name list Chassis"))).includes(systemIds.get(h.name)!));
});

test("central delete closes the listeners and keeps the databases", async () => {
    await inHost(lab, "node1", "ovn-nbctl ls-add keep-me");
    await runOk(lab, "node1", scripts.centralScript(centralModel(false, central().ip)).delete!);
    assert.doesNotMatch(await inHost(lab, "node1", "ss -Hltn"), /:664[12]\b/);
    assert.match(await inHost(lab, "node1", "ovn-nbctl --bare --columns=name list Logical_Switch"), /keep-me/);
});
