// Real hosts over SSL: the central's pssl listeners with key, certificate and CA from stdin
// (files 0600 under /etc/ovn), a chassis that joins the SB over ssl with its own client material
// from stdin, and the way back to tcp removing what SSL left. Certificates made by openssl here.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { down } from "../../lab/localcluster";
import type { LocalCluster } from "../../lab/localcluster";
import * as scripts from "../../components/hosts/scripts";
import { centralModel } from "./fixtures";
import { makePki, type Pki } from "../../lab/harness/pki";
import { inHost, labHost, ovsdbAddresses, startLab } from "./support/lab";
import { runOk } from "./support/remote";

const ID = "hostsssl";
let lab: LocalCluster;
let pki: Pki;

before(async () => {
    pki = makePki(ID);
    lab = await startLab(ID, 2);
    for (const h of lab.hosts) await runOk(lab, h.name, scripts.ovsStartScript(labHost(h)).create);
});
after(async () => {
    await down(ID);
});

const sslStdin = () => scripts.encodeSecretLines({ "ssl-private-key": pki.key, "ssl-certificate": pki.cert, "ssl-ca-certificate": pki.ca });

test("central over ssl: pssl listeners, SSL files 0600 from stdin, reachable over ssl from node2", async () => {
    const central = scripts.centralScript(centralModel(true, lab.hosts[0].ip));
    for (const text of [central.create, central.delete!])
        assert.ok(!text.includes(pki.key.split("\n")[1]), "no key material in the script");
    const r = await runOk(lab, "node1", central.create, sslStdin());
    assert.ok(!r.stderr.includes("PRIVATE KEY") && !r.stdout.includes("PRIVATE KEY"));
    assert.equal(
        (
            await inHost(
                lab,
                "node1",
                "stat -c %a /etc/ovn/ovn-central-privkey.pem /etc/ovn/ovn-central-cert.pem /etc/ovn/ovn-central-cacert.pem",
            )
        ).trim(),
        "600\n600\n600",
    );
    assert.equal(await inHost(lab, "node1", "cat /etc/ovn/ovn-central-privkey.pem"), pki.key);
    assert.equal((await inHost(lab, "node1", "ovn-nbctl get-connection")).trim(), `pssl:6641:${lab.hosts[0].ip}`);
    // node2 reaches NB over ssl with the client material, put by the test in a directory private to
    // the host (a local-cluster host shares /tmp with this machine).
    const put = (pem: string, file: string) => `printf '%s' ${Buffer.from(pem).toString("base64")} | base64 -d >${file}`;
    await inHost(
        lab,
        "node2",
        `mkdir -p /var/lib/openvswitch/test-pki && ${put(pki.key, "/var/lib/openvswitch/test-pki/k")} && ${put(pki.cert, "/var/lib/openvswitch/test-pki/c")} && ${put(pki.ca, "/var/lib/openvswitch/test-pki/ca")}`,
    );
    await inHost(
        lab,
        "node2",
        `ovn-nbctl --timeout=10 --db=ssl:${lab.hosts[0].ip}:6641 -p /var/lib/openvswitch/test-pki/k -c /var/lib/openvswitch/test-pki/c -C /var/lib/openvswitch/test-pki/ca show`,
    );
});

test("chassis over ssl: ovn-controller joins the SB with its client material from stdin", async () => {
    const h = lab.hosts[1];
    const chassis = scripts.chassisScript(labHost(h), ovsdbAddresses(lab.hosts[0], "ssl"));
    const systemId = scripts.parseSystemId((await runOk(lab, h.name, chassis.create, sslStdin())).stdout);
    assert.match(await inHost(lab, h.name, "ovs-vsctl get-ssl"), /Private key: \/etc\/openvswitch\/ovn-controller-privkey\.pem/);
    const names = await inHost(
        lab,
        "node2",
        `ovn-sbctl --timeout=10 --db=ssl:${lab.hosts[0].ip}:6642 -p /var/lib/openvswitch/test-pki/k -c /var/lib/openvswitch/test-pki/c -C /var/lib/openvswitch/test-pki/ca --bare --columns=name list Chassis`,
    );
    assert.match(names, new RegExp(systemId));
});

test("back to tcp: the central and the chassis drop their SSL settings and files", async () => {
    const h = lab.hosts[1];
    await runOk(lab, "node1", scripts.centralScript(centralModel(false, lab.hosts[0].ip)).create);
    assert.equal((await inHost(lab, "node1", "ls /etc/ovn | grep -c ovn-central- || true")).trim(), "0");
    assert.equal((await inHost(lab, "node1", "ovn-nbctl get-ssl")).trim(), "");
    await runOk(lab, h.name, scripts.chassisScript(labHost(h), ovsdbAddresses(lab.hosts[0], "tcp")).create);
    assert.equal((await inHost(lab, h.name, "ovs-vsctl get-ssl")).trim(), "");
    assert.equal((await inHost(lab, h.name, "ls /etc/openvswitch | grep -c ovn-controller- || true")).trim(), "0");
});
