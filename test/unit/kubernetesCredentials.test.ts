// ovnkube mode writes to the cluster named by `kubeconfig`, or, said explicitly, to the one the
// operator's own kubeconfig points at; never silently to whatever a shell points at.
import assert from "node:assert/strict";
import { test } from "node:test";
import { ConfigError, validateConfig } from "../../components/plan/validate";
import { stackConfig } from "../../lab/harness/configs";

test("ovnkube mode: kubeconfig, or kubernetes.useAmbientConfig: true, and not both", () => {
    const withKubeconfig = stackConfig("staging");
    assert.equal(validateConfig(withKubeconfig).kubernetes.useAmbientConfig, false);

    const ambient = stackConfig("staging");
    delete ambient.kubeconfig;
    ambient.kubernetes.useAmbientConfig = true;
    assert.equal(validateConfig(ambient).kubernetes.useAmbientConfig, true);

    const neither = stackConfig("staging");
    delete neither.kubeconfig;
    assert.throws(
        () => validateConfig(neither),
        (e: unknown) => e instanceof ConfigError && e.problems.map((p) => p.path).join() === "kubeconfig",
    );
});

test("Pulumi mode needs no Kubernetes credentials", () => {
    const dev = stackConfig("dev");
    assert.equal(dev.kubeconfig, undefined);
    assert.equal(validateConfig(dev).kubernetes.enabled, false);
});
