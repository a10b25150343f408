// A reference refused for any reason never shows the credentials written into it.
import assert from "node:assert/strict";
import { test } from "node:test";
import { ConfigError, validateConfig } from "../../components/plan/validate";
import { withoutCredentials } from "../../components/plan/checks/transports";
import { stackConfig } from "../../lab/harness/configs";

const TOKEN = "s3cr3t-t0ken";

const CASES: Array<[string, (c: Record<string, any>) => void]> = [
    [
        "CRD mirror with a token and a bad shape",
        (c) => (c.ovnkube = { ...c.ovnkube, crdMirror: `http://deploy:${TOKEN}@mirror.example.com/master` }),
    ],
    ["CRD mirror with a token", (c) => (c.ovnkube = { ...c.ovnkube, crdMirror: `https://deploy:${TOKEN}@mirror.example.com/master/` })],
    ["image with registry credentials", (c) => (c.ovnkube = { ...c.ovnkube, image: `bob:${TOKEN}@REGISTRY/ovn:latest` })],
    [
        "repository URL with a token",
        (c) => (c.packages = { repository: { name: "ovs", url: `https://x:${TOKEN}@repo.example.com/ debian` } }),
    ],
    ["API server URL with a token", (c) => (c.apiServer.url = `https://admin:${TOKEN}@10.20.0.10:6443`)],
];

for (const [what, mutate] of CASES)
    test(`refused without its credentials: ${what}`, () => {
        const cfg = stackConfig("staging");
        mutate(cfg);
        assert.throws(
            () => validateConfig(cfg),
            (e: unknown) => e instanceof ConfigError && !e.message.includes(TOKEN) && /…@|holds credentials/.test(e.message),
        );
    });

test("withoutCredentials keeps the reference's shape", () => {
    assert.equal(withoutCredentials("https://u:p@h.example.com/x/"), "https://…@h.example.com/x/");
    assert.equal(withoutCredentials("bob:pw@registry.example.com/ovn:v1"), "…@registry.example.com/ovn:v1");
    assert.equal(withoutCredentials("ghcr.io/ovn/ovnkube@sha256:" + "a".repeat(64)), "ghcr.io/ovn/ovnkube@sha256:" + "a".repeat(64));
});

test("one ciphertext under two secret keys is refused at the later key without its value; placeholders and shared certificates are not", () => {
    const cipher = "v1:Zm9vYmFyYmF6:c2VjcmV0LXZhbHVlLWhlcmU=";
    const cfg = stackConfig("prod");
    cfg.ovnSslPrivateKey = { secure: cipher };
    cfg.ovnSslCertificate = { secure: cipher };
    assert.throws(
        () => validateConfig(structuredClone(cfg)),
        (e: unknown) =>
            e instanceof ConfigError &&
            e.problems.some((p) => p.path === "ovnSslCertificate" && /same ciphertext as ovnSslPrivateKey/.test(p.message)) &&
            !e.message.includes("c2VjcmV0"),
    );
    cfg.ovnSslPrivateKey = { secure: "v1:cXV4cXV1eA==:a2V5LW1hdGVyaWFsLWhlcmU=" };
    cfg.ovnSslCaCertificate = { secure: cipher };
    assert.doesNotThrow(() => validateConfig(cfg), "certificates may share a value");
});
