// The compatibility gate of ovnkube mode: the versions are read on the central itself over a real
// sshd (this machine's Debian 12 OVN 23.03 stands for an old central), compared with what ovnkube's
// models need, and an old central is refused at check, naming both versions and the fix.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { compareVersions, parseSchemas, requirementFor, schemaRefusal } from "../../components/compat/ovnkubeSchema";
import { schemaCheckProvider } from "../../components/compat/schemaCheck";
import { closeSshPool } from "../../components/ssh/pool";
import { run } from "../../localcluster/run";
import { startSshd, type TestSshd } from "../support/sshd";

describe("ovnkube schema requirements (pure)", () => {
    it("reads the release line from the image tag, and holds an unnamed one to the newest requirement", () => {
        assert.deepEqual([requirementFor("ghcr.io/x/ovn-kube-ubuntu:release-1.0").ovnkube, requirementFor("r/ovnkube:v1.0.0").assumed], ["1.0", false]);
        assert.equal(requirementFor("ghcr.io/x/ovn-kube-ubuntu:master").assumed, true);
        assert.equal(requirementFor("r/ovnkube@sha256:" + "a".repeat(64)).assumed, true);
    });
    it("compares OVSDB schema versions numerically", () => {
        assert.ok(compareVersions("7.0.0", "7.3.0") < 0);
        assert.ok(compareVersions("7.11.0", "7.3.0") > 0);
        assert.equal(compareVersions("20.33.0", "20.33.0"), 0);
    });
    it("accepts OVN 25.03's schemas and refuses 23.03's, naming both versions and the fix", () => {
        const image = "ghcr.io/ovn-org/ovn-kubernetes/ovn-kube-ubuntu:release-1.0";
        assert.equal(schemaRefusal(image, { host: "c", nb: "7.11.0", sb: "20.41.0", source: "served" }), undefined);
        const refusal = schemaRefusal(image, { host: "central1", nb: "7.0.0", sb: "20.27.0", source: "installed" })!;
        assert.match(refusal, /central central1/);
        assert.match(refusal, /OVN_Northbound 7\.0\.0 \(needs 7\.3\.0\)/);
        assert.match(refusal, /OVN_Southbound 20\.27\.0 \(needs 20\.33\.0\)/);
        assert.match(refusal, /OVN 24\.03 or newer/);
        assert.match(refusal, /Debian 13/);
    });
    it("parses what the central prints, and nothing when OVN is not installed", () => {
        assert.deepEqual(parseSchemas("c", "served 7.11.0 20.41.0\n"), { host: "c", source: "served", nb: "7.11.0", sb: "20.41.0" });
        assert.equal(parseSchemas("c", ""), undefined);
    });
});

describe("OvnkubeSchemaCheck against a central over SSH", () => {
    let sshd: TestSshd;
    before(async () => (sshd = await startSshd()));
    after(async () => {
        closeSshPool();
        await sshd?.cleanup();
    });
    const inputs = () => ({ host: "central1", ssh: sshd.target(), privateKey: sshd.privateKey, image: "ghcr.io/ovn-org/ovn-kubernetes/ovn-kube-ubuntu:release-1.0" });

    it("refuses at check this machine's installed OVN (read from its schema files), with the versions found there", async () => {
        const local = await run(["ovsdb-tool", "schema-version", "/usr/share/ovn/ovn-nb.ovsschema"]);
        const nb = local.stdout.trim();
        assert.ok(compareVersions(nb, "7.3.0") < 0, `this test needs an OVN older than 24.03 installed here, found NB ${nb}`);
        const r = await schemaCheckProvider.check!({}, inputs());
        assert.equal(r.failures?.length, 1);
        assert.equal(r.failures![0].property, "image");
        assert.match(r.failures![0].reason, new RegExp(`has installed OVN_Northbound ${nb.replace(/\./g, "\\.")} \\(needs 7\\.3\\.0\\)`));
        await assert.rejects(schemaCheckProvider.create!(inputs()), /cannot use the OVN databases of the central central1/);
    });

    it("a newer ovnkube line with no known requirement is held to the newest one, and says so", async () => {
        const r = await schemaCheckProvider.check!({}, { ...inputs(), image: "example.com/ovnkube:master" });
        assert.match(r.failures![0].reason, /taken as ovnkube 1\.0, the newest release this program knows/);
    });
});
