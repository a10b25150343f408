// The compatibility gate of ovnkube mode: the versions are read on the databases' host itself over
// a real sshd (this machine's Debian 12 OVN 23.03 stands for an old host), compared with what the
// release's models need, and an old host is refused by its script bundle at check, naming both
// versions and the fix, and again at create before anything is installed.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { compareVersions, parseSchemas, schemaRefusal } from "../../components/compat/ovnkubeSchema";
import { verifySchemasOn } from "../../components/compat/schemaCheck";
import { scriptBundleProvider } from "../../components/hosts/scriptBundle";
import { run } from "../../lab/localcluster/run";
import { bundleOverSsh } from "../support/bundleOverSsh";

describe("ovnkube schema requirements (pure)", () => {
    it("compares OVSDB schema versions numerically", () => {
        assert.ok(compareVersions("7.0.0", "7.3.0") < 0);
        assert.ok(compareVersions("7.11.0", "7.3.0") > 0);
        assert.equal(compareVersions("20.33.0", "20.33.0"), 0);
    });
    it("accepts OVN 26.03's schemas and refuses Debian 13's OVN 25.03 for 1.3 and 1.2, naming both versions and the fix", () => {
        for (const version of ["1.3", "1.2"] as const) {
            assert.equal(schemaRefusal(version, { host: "c", nb: "7.18.0", sb: "21.8.0", source: "served" }), undefined);
            const refusal = schemaRefusal(version, { host: "node1", nb: "7.11.0", sb: "20.41.0", source: "installed" })!;
            assert.match(refusal, new RegExp(`^ovn-kubernetes ${version.replace(".", "\\.")} cannot use the OVN databases of node1`));
            assert.match(refusal, /OVN_Northbound 7\.11\.0 \(needs 7\.12\.0\)/);
            assert.match(refusal, /OVN_Southbound 20\.41\.0 \(needs 21\.5\.0\)/);
            assert.match(refusal, /OVN 25\.09 or newer/);
            assert.match(refusal, /Debian unstable/);
        }
    });
    it("parses what the host prints, and nothing when OVN is neither installed nor offered", () => {
        assert.deepEqual(parseSchemas("c", "served 7.11.0 20.41.0\n"), { host: "c", source: "served", nb: "7.11.0", sb: "20.41.0" });
        assert.equal(parseSchemas("c", ""), undefined);
    });
    it("a host whose packages are not installed yet is judged by the OVN its package manager would install", () => {
        const debian13 = parseSchemas("node1", "candidate 25.03.0-1\n")!;
        assert.deepEqual(debian13, { host: "node1", source: "candidate", package: "25.03.0-1", nb: "7.11.0", sb: "20.41.0" });
        assert.match(
            schemaRefusal("1.3", debian13)!,
            /^ovn-kubernetes 1\.3 cannot use the OVN databases of node1: it would install \(ovn-central 25\.03\.0-1\) OVN_Northbound 7\.11\.0 \(needs 7\.12\.0\)/,
        );
        assert.equal(schemaRefusal("1.3", parseSchemas("n", "candidate 1:26.03.1-1+b1")!), undefined);
        // A release whose schemas are not known here decides once it is installed.
        assert.equal(parseSchemas("n", "candidate 25.09.2-1"), undefined);
    });
});

describe("the schema check of a script bundle against a host over SSH", () => {
    const host = bundleOverSsh();
    const databases = { node: "central1", version: "1.3" as const };
    const inputs = () => host.inputs({ ovnkubeDatabases: databases });

    it("refuses at check this machine's installed OVN (read from its schema files), with the versions found there, and at create before installing anything", async () => {
        const local = await run(["ovsdb-tool", "schema-version", "/usr/share/ovn/ovn-nb.ovsschema"]);
        const nb = local.stdout.trim();
        assert.ok(compareVersions(nb, "7.12.0") < 0, `this test needs an OVN older than 25.09 installed here, found NB ${nb}`);
        const r = await scriptBundleProvider.check!({}, inputs());
        assert.equal(r.failures?.length, 1);
        assert.equal(r.failures![0].property, "ovnkubeDatabases");
        assert.match(
            r.failures![0].reason,
            new RegExp(
                `^ovn-kubernetes 1\\.3 cannot use the OVN databases of central1: it has installed OVN_Northbound ${nb.replace(/\./g, "\\.")} \\(needs 7\\.12\\.0\\)`,
            ),
        );
        await assert.rejects(scriptBundleProvider.create!(inputs()), /ovn-kubernetes 1\.3 cannot use the OVN databases of central1/);
        // After a package step, the same: what is installed decides.
        await assert.rejects(
            verifySchemasOn(inputs().ssh, host.sshd().privateKey, databases),
            /ovn-kubernetes 1\.3 cannot use the OVN databases of central1: it has installed/,
        );
        await assert.rejects(
            verifySchemasOn(inputs().ssh, host.sshd().privateKey, { node: "central1", version: "1.2" }),
            /OVN_Northbound \S+ \(needs 7\.12\.0\)/,
            "1.2 needs OVN 25.09 as well",
        );
    });
});
