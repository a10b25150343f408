// The documented stacks, through config validation and the cluster model, give Kubernetes objects
// that pass the API schema: the model's kube part and these manifests agree on their contract.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { DaemonSet } from "kubernetes-models/apps/v1/DaemonSet";
import { ConfigMap } from "kubernetes-models/v1/ConfigMap";
import { validateConfig } from "../../components/config/validate";
import { kubeManifests } from "../../components/kube/manifests";
import { buildClusterModel } from "../../components/model/cluster";
import { stackConfig } from "../support/configs";

for (const stack of ["dev", "prod"] as const) {
    describe(`stack ${stack}`, () => {
        const model = buildClusterModel(validateConfig(stackConfig(stack)));
        const m = kubeManifests(model.kube);

        it("validates against the Kubernetes schema", () => {
            new ConfigMap(m.configMap as never).validate();
            new DaemonSet(m.master as never).validate();
            new DaemonSet(m.node as never).validate();
        });

        it("places ovnkube-master on the stack's master nodes", () => {
            const terms = m.master.spec.template.spec.affinity?.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms;
            assert.deepEqual(terms?.[0].matchFields[0].values, model.kube.masterNodes);
            assert.ok(model.kube.masterNodes.length > 0);
        });

        it("passes every ovn-config key ovnkube has a flag for", () => {
            const env = new Set(m.node.spec.template.spec.containers[0].env?.map((e) => e.name));
            for (const name of ["OVN_NORTH", "OVN_SOUTH", "K8S_APISERVER", "OVN_NET_CIDR", "OVN_SVC_CIDR", "MTU", "OVN_HOST_SUBNET_LENGTH", "OVN_ENCAP_TYPE"]) {
                assert.ok(env.has(name), name);
            }
        });
    });
}
