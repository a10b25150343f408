// The prod stack (ovnkube mode, centralized, a central that is no Kubernetes node) with user-defined
// networks on, under the SDK's mocks: the NetworkAttachmentDefinition CRD is registered beside the
// release's (read from a lab mirror of its project), every Kubernetes node's script bundle checks
// its host for systemd and VRF and the central's does not, and the DaemonSets carry the flags.
import assert from "node:assert/strict";
import * as fs from "node:fs";
import { after, test } from "node:test";
import { releaseOf } from "../../components/config/releases";
import { runProgramUnderMocks } from "../../lab/harness/pulumiMocks";
import { stackConfig } from "../../lab/harness/configs";
import { writeLabCrdMirror } from "../../lab/localcluster/labCrdMirror";
import { stateDir } from "../../lab/localcluster/names";

const ID = "mockudn";
const FEATURES = { multiNetwork: true, networkSegmentation: true };

after(() => fs.rmSync(stateDir(ID), { recursive: true, force: true }));

test("prod with user-defined networks: the NAD CRD, a systemd and VRF check on every Kubernetes node, the flags", async () => {
    const prod = stackConfig("prod");
    const ovnkube = { ...prod.ovnkube, features: FEATURES, crdMirror: writeLabCrdMirror(ID, "1.3", FEATURES) };
    const { resources } = await runProgramUnderMocks("prod", { ovnkube });
    const crds = resources
        .filter((r) => r.type === "kubernetes:apiextensions.k8s.io/v1:CustomResourceDefinition")
        .map((r) => r.inputs.metadata.name as string);
    assert.equal(crds.length, releaseOf("1.3").crdUrls.length + 1);
    assert.ok(crds.includes("network-attachment-definitions.k8s.cni.cncf.io"), crds.join(", "));
    const k8sNodes = (prod.nodes as Array<{ name: string; roles: string[] }>)
        .filter((n) => n.roles.includes("node") || n.roles.includes("master"))
        .map((n) => n.name);
    const bundles = resources.filter((r) => r.type === "pulumi-nodejs:dynamic/hosts:ScriptBundle");
    assert.ok(bundles.length > k8sNodes.length, "the stack has hosts that are no Kubernetes node");
    assert.deepEqual(
        bundles
            .filter((b) => b.inputs.udnHost !== undefined)
            .map((b) => b.inputs.udnHost.node)
            .sort(),
        [...k8sNodes].sort(),
    );
    // ovnkube's own DaemonSets; ovnkube-identity takes no feature flags.
    const daemonSets = resources.filter((r) => r.type === "kubernetes:apps/v1:DaemonSet" && !r.name.endsWith("-identity"));
    assert.ok(daemonSets.length >= 2, daemonSets.map((d) => d.name).join(", "));
    for (const ds of daemonSets) {
        const command = JSON.stringify(
            ds.inputs.spec.template.spec.containers.map((c: { command?: string[]; args?: string[] }) => [c.command, c.args]),
        );
        assert.match(command, /-enable-multi-network.*-enable-network-segmentation/, ds.name);
    }
});
