// The program for the staging stack with ovnkube.ipsec under the SDK's mocks: one PKI for the
// cluster, its keys secret outputs; per node an `-ipsec` host command after its ovn-controller and
// the PKI, its key, certificate and CA only on its secret stdin, the certificate naming the chassis.
import assert from "node:assert/strict";
import { X509Certificate } from "node:crypto";
import { test } from "node:test";
import { stackConfig } from "../../lab/harness/configs";
import { dropSecrets, IPSEC_CERTIFICATES, runProgramUnderMocks } from "../../lab/harness/pulumiMocks";

test("staging stack with ovnkube.ipsec under mocks: the PKI and one IPsec command per node, secrets on stdin only", async () => {
    const staging = stackConfig("staging");
    const { resources } = await runProgramUnderMocks("staging", { ovnkube: { ...staging.ovnkube, ipsec: true } });
    const nodes = (staging.nodes as Array<{ name: string }>).map((n) => n.name);
    const byName = (name: string) => {
        const r = resources.find((x) => x.name === name);
        assert.ok(r, `no resource named ${name}`);
        return r;
    };
    const pki = byName("ovn-ipsec-certificates");
    assert.equal(pki.type, IPSEC_CERTIFICATES);
    assert.deepEqual(pki.secretOutputs, ["caPrivateKey", "privateKeys"]);
    assert.deepEqual(Object.keys(pki.inputs.systemIds).sort(), [...nodes].sort());
    assert.equal(resources.filter((r) => r.type === IPSEC_CERTIFICATES).length, 1);

    const commands = resources.filter((r) => r.type === "command:remote:Command" && r.name.endsWith("-ipsec"));
    assert.deepEqual(commands.map((c) => c.name).sort(), nodes.map((n) => `ovn-${n}-ipsec`).sort());
    for (const node of nodes) {
        const cmd = byName(`ovn-${node}-ipsec`);
        assert.equal(dropSecrets(cmd.inputs.stdin), "[secret]", `${cmd.name}: stdin is secret`);
        const deps = cmd.registration!.dependencies;
        assert.ok(deps.includes(byName(`ovn-${node}-chassis-controller`).registration!.urn), `${cmd.name} waits for its ovn-controller`);
        assert.ok(deps.includes(pki.registration!.urn), `${cmd.name} waits for the PKI`);
        const lines = Object.fromEntries(
            (cmd.inputs.stdin.value as string)
                .trim()
                .split("\n")
                .map((l) => l.split(" "))
                .map(([k, v]) => [k, Buffer.from(v, "base64").toString()]),
        );
        assert.deepEqual(Object.keys(lines).sort(), ["ipsec-ca-certificate", "ipsec-certificate", "ipsec-private-key"]);
        const cert = new X509Certificate(lines["ipsec-certificate"]);
        assert.equal(cert.subject, `O=ovn-kubernetes\nCN=${pki.inputs.systemIds[node]}`);
        assert.ok(cert.checkIssued(new X509Certificate(lines["ipsec-ca-certificate"])));
        const keyLine = lines["ipsec-private-key"].split("\n")[1];
        for (const r of resources)
            assert.ok(!(JSON.stringify(dropSecrets(r.inputs)) ?? "").includes(keyLine), `${r.name}: ${node}'s IPsec key in plain text`);
    }
});
