// The Kubernetes API token and CA reach the chassis' Open_vSwitch row without ever being in a
// process's argv (what `ps` shows, what ovs-vsctl logs as "Called as"), in an OVS or OVN log, or
// in the script's output: every command line on the machine is sampled while the chassis script
// runs over real SSH, then the host's logs are searched.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { down } from "../../lab/localcluster";
import type { LocalCluster } from "../../lab/localcluster";
import * as scripts from "../../components/hosts/scripts";
import { centralModel } from "./fixtures";
import { sampleCommandLines } from "./support/argvSampler";
import { externalId, inHost, labHost, ovsdbAddresses, startLab } from "./support/lab";
import { runOk } from "./support/remote";

const ID = "hostsarg";
const H = "node1";
let lab: LocalCluster;

/** Values no process, log or output may show; the CA holds what JSON and OVSDB quote. */
const token = (n: number) => `tok-${n}-9c1e7a4f2b6d8e0a-NEVER-IN-ARGV`;
const CA = '-----BEGIN CERTIFICATE-----\nMIIB"quoted"\\back\\slash+/=NEVERINARGV\n-----END CERTIFICATE-----';

before(async () => {
    lab = await startLab(ID, 1);
    await runOk(lab, H, scripts.ovsStartScript(labHost(lab.hosts[0])).create);
    await runOk(lab, H, scripts.centralScript(centralModel(false, lab.hosts[0].ip)).create);
});
after(async () => {
    await down(ID);
});

for (const n of [1, 2]) {
    test(`chassis with an https API server (token ${n}): the secrets land in external_ids and nowhere else`, async () => {
        const host = labHost(lab.hosts[0], { k8sApiServer: "https://10.0.0.1:6443" });
        const stdin = scripts.encodeSecretLines({ "k8s-api-token": token(n), "k8s-ca-certificate": CA });
        const sampler = sampleCommandLines();
        const r = await runOk(lab, H, scripts.chassisScript(host, ovsdbAddresses(lab.hosts[0])).create, stdin);
        const sample = await sampler.stop();

        assert.equal(await externalId(lab, H, "k8s-api-token"), token(n), "a rotated token replaces the old one");
        assert.equal(await externalId(lab, H, "k8s-ca-certificate"), CA);
        assert.equal(await externalId(lab, H, "k8s-api-server"), "https://10.0.0.1:6443");

        const needles = [token(n), "NEVERINARGV", Buffer.from(token(n)).toString("base64").slice(0, 24)];
        for (const needle of needles) {
            assert.ok(!r.stdout.includes(needle) && !r.stderr.includes(needle), `the script printed ${needle}`);
            const shown = sample.commandLines.filter((l) => l.includes(needle));
            assert.deepEqual(shown, [], `a command line showed ${needle}`);
        }
        // The sampler did see the run: the script's own shell and the OVS tools it started.
        assert.ok(
            sample.commandLines.some((l) => l.includes("/run.sh ovn-ctl secrets chassis-create")),
            "the chassis script was sampled",
        );
        const tools = sample.commandLines.filter((l) => /^(ovs-vsctl|ovn-appctl|python3) /.test(l));
        assert.ok(sample.passes > 10, `only ${sample.passes} passes over /proc`);
        console.log(
            `argv sampler: ${sample.passes} passes, ${sample.commandLines.length} command lines, ${tools.length} of OVS tools and python3`,
        );

        const logs = await inHost(lab, H, "ls /var/log/openvswitch /var/log/ovn");
        assert.match(logs, /ovsdb-server\.log/, "there are logs to search");
        for (const needle of needles) {
            const found = await inHost(lab, H, `grep -rlF -- '${needle}' /var/log/openvswitch /var/log/ovn || true`);
            assert.equal(found.trim(), "", `${needle} found in ${found}`);
        }
    });
}
