// The image reference grammar: what registries accept passes, with its parts; the rest is named.
import assert from "node:assert/strict";
import { test } from "node:test";
import { parseImageReference } from "../../components/plan/checks/imageReference";
import { validateConfig } from "../../components/plan/validate";
import { OVNKUBE_RELEASES } from "../../components/config/releases";
import { stackConfig } from "../../lab/harness/configs";

const DIGEST = "sha256:" + "0123456789abcdef".repeat(4);

test("references naming a registry parse into registry, repository, tag and digest", () => {
    assert.deepEqual(parseImageReference("registry.example.com:5000/ovn/ovn-kube__x.y:v1.3.0"), {
        registry: "registry.example.com:5000",
        repository: "ovn/ovn-kube__x.y",
        tag: "v1.3.0",
        digest: undefined,
    });
    assert.deepEqual(parseImageReference(`localhost/ovnkube@${DIGEST}`), {
        registry: "localhost",
        repository: "ovnkube",
        tag: undefined,
        digest: DIGEST,
    });
    assert.deepEqual(parseImageReference(`10.0.0.5:5000/ovnkube:v1@${DIGEST}`), {
        registry: "10.0.0.5:5000",
        repository: "ovnkube",
        tag: "v1",
        digest: DIGEST,
    });
    for (const r of Object.values(OVNKUBE_RELEASES)) assert.equal(typeof parseImageReference(r.image), "object", r.image);
});

test("short names, schemes, upper-case paths and bad ports are refused with what to write", () => {
    assert.match(parseImageReference("ovnkube:v1") as string, /names no registry.*ghcr\.io\/ovnkube:v1/);
    assert.match(parseImageReference("docker://quay.io/ovn/ovnkube:v1") as string, /write quay\.io\/ovn\/ovnkube:v1/);
    assert.match(parseImageReference("quay.io/Ovn/ovnkube:v1") as string, /path component "Ovn"/);
    assert.match(parseImageReference("quay.io:x5000/ovn:v1") as string, /numeric port/);
    assert.match(parseImageReference("quay.io/ovn--/x:v1") as string, /path component "ovn--"/);
});

test("a moving tag is accepted when the stack says so; the release's own image always", () => {
    const cfg = stackConfig("staging");
    cfg.ovnkube = { ...cfg.ovnkube, image: "ghcr.io/ovn-kubernetes/ovn-kubernetes/ovn-kube-ubuntu:latest" };
    assert.throws(() => validateConfig(structuredClone(cfg)), /ovnkube\.image: .*moving tag "latest"/);
    cfg.ovnkube.allowMovingImageTag = true;
    assert.equal(validateConfig(cfg).ovnkube.image, "ghcr.io/ovn-kubernetes/ovn-kubernetes/ovn-kube-ubuntu:latest");
});
