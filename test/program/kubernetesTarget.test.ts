// ovnkube mode says which cluster it writes to: the program's `kubernetesServer` output is the
// server of the kubeconfig's current context (not secret: an operator checks it in the preview),
// and with kubernetes.useAmbientConfig that of the operator's own kubeconfig.
import assert from "node:assert/strict";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { ambientServer } from "../../components/program/kubernetesTarget";
import { runProgramUnderMocks, settle } from "../../lab/harness/pulumiMocks";
import { kubeconfigFor, TEST_KUBE_SERVER } from "../../lab/harness/secretMaterial";

test("staging under mocks: kubernetesServer is the kubeconfig's server, in the clear", async () => {
    const { program } = await runProgramUnderMocks("staging");
    const server = await settle((program as { kubernetesServer: any }).kubernetesServer);
    assert.deepEqual(server, { value: TEST_KUBE_SERVER, secret: false });
});

test("the ambient kubeconfig: $KUBECONFIG's first file, its current context's server, or why there is none", () => {
    const dir = mkdtempSync(join(tmpdir(), "ambient-"));
    const file = join(dir, "config");
    writeFileSync(file, kubeconfigFor("https://api.ambient.example.com:6443"));
    assert.equal(
        ambientServer({ KUBECONFIG: `${file}:/nonexistent` }),
        `https://api.ambient.example.com:6443 (the ambient kubeconfig ${file}, its current context)`,
    );
    assert.equal(
        ambientServer({ KUBECONFIG: join(dir, "missing") }),
        `the ambient kubeconfig, but ${join(dir, "missing")} cannot be read here`,
    );
    writeFileSync(file, "clusters: []\n");
    assert.equal(ambientServer({ KUBECONFIG: file }), `no server (the ambient kubeconfig ${file}, its current context)`);
});
