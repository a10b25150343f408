// The installable package as another program sees it: its name and entries, what its providers
// entry serves, and how it refuses a stub of another contract.
import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { test } from "node:test";
import { PACKAGE_NAME, PROVIDER_CONTRACT, PROVIDERS_ENTRY } from "../../components/dynamic/contract";

const ROOT = path.resolve(__dirname, "../..");
const manifest = JSON.parse(fs.readFileSync(path.join(ROOT, "components/package.json"), "utf8"));

test("the package's name is the one the stubs require, and it resolves through node_modules", () => {
    assert.equal(manifest.name, PACKAGE_NAME);
    const areas = fs.readdirSync(path.join(ROOT, "components/exports")).map((f) => `./${f.replace(/\.ts$/, "")}`);
    assert.deepEqual(Object.keys(manifest.exports).sort(), [".", "./package.json", "./providers", ...areas].sort());
    const resolved = require.resolve(PROVIDERS_ENTRY, { paths: [ROOT] });
    assert.equal(resolved, path.join(ROOT, "components/dist/providers.js"));
    // Each area entry resolves to its built file, for node and for the compiler alike.
    for (const area of areas) {
        assert.equal(
            require.resolve(`${PACKAGE_NAME}/${area.slice(2)}`, { paths: [ROOT] }),
            path.join(ROOT, `components/dist/exports/${area.slice(2)}.js`),
        );
        assert.deepEqual(manifest.typesVersions["*"][area.slice(2)], [`dist/exports/${area.slice(2)}.d.ts`]);
    }
    const root = JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8"));
    assert.equal(root.dependencies[PACKAGE_NAME], manifest.version);
});

test("the providers entry serves every dynamic resource type of the package, under this contract only", async () => {
    // The built entry, as the provider host loads it.
    const providers = require(require.resolve(PROVIDERS_ENTRY, { paths: [ROOT] }));
    const tokens = [
        "ovn-nb:ClusterRouter",
        "ovn-nb:NodeSwitch",
        "ovn-nb:GatewayRouter",
        "ovn-nb:NorthboundExpectation",
        "ovn-kubernetes:DestroyGuard",
        "ovn-kubernetes:ClusterIdentityCheck",
        "ovn-kubernetes:OvnkubeSchemaCheck",
        "ovn-kubernetes:WebhookCertificate",
        "hosts:ScriptBundle",
        "ssh:HostKeyCheck",
        "ovn-kubernetes:TunnelMtuCheck",
    ];
    for (const token of tokens) {
        const p = providers.installedProvider(token, PROVIDER_CONTRACT, manifest.version);
        assert.ok(Object.keys(p).length > 0 && Object.values(p).every((f) => typeof f === "function"), token);
    }
    // The built provider is the webhook certificate's own: it refuses what its check refuses.
    const webhook = providers.installedProvider("ovn-kubernetes:WebhookCertificate", PROVIDER_CONTRACT, manifest.version);
    assert.deepEqual(
        (await webhook.check({}, { hosts: [] })).failures.map((f: { property: string }) => f.property),
        ["hosts"],
    );
    assert.throws(
        () => providers.installedProvider("ovn-nb:NodeSwitch", PROVIDER_CONTRACT + 1, "9.9.9"),
        new RegExp(
            `written by ${PACKAGE_NAME} 9\\.9\\.9 for provider contract ${PROVIDER_CONTRACT + 1}, but the installed ${PACKAGE_NAME} ${manifest.version.replace(/\./g, "\\.")} speaks contract ${PROVIDER_CONTRACT}`,
        ),
    );
    assert.throws(
        () => providers.installedProvider("ovn-nb:Nothing", PROVIDER_CONTRACT, manifest.version),
        /ovn-nb:Nothing: the installed .* has no such provider/,
    );
});

test("the main entry exports the cluster component and what a program feeds it", () => {
    const main = require(require.resolve(PACKAGE_NAME, { paths: [ROOT] }));
    for (const name of [
        "OvnKubernetesCluster",
        "validateConfig",
        "ConfigError",
        "readStackConfig",
        "logConfigWarnings",
        "NodeSwitch",
        "NorthboundExpectation",
    ]) {
        assert.equal(typeof main[name], "function", name);
    }
});
