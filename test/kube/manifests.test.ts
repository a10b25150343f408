// Every object validates against the Kubernetes OpenAPI schema, and the DaemonSets hold together:
// selectors, placement, privileges, volumes, environment and arguments.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { kubeManifests, manifestList } from "../../components/kube/manifests";
import { CONFIG_HASH_ANNOTATION } from "../../components/kube/daemonset";
import type { Container, DaemonSet as DaemonSetObject, KubeObject } from "../../components/kube/types";
import { kubeModel } from "./fixture";
import { validateObject } from "./schema";

const m = kubeManifests(kubeModel());
const daemonSets = [m.master, ...m.nodes];

const containers = (ds: DaemonSetObject): Container[] => [
    ...(ds.spec.template.spec.initContainers ?? []),
    ...ds.spec.template.spec.containers,
];

describe("schema", () => {
    it("every object validates against the Kubernetes OpenAPI schema", () => {
        const list = manifestList(m);
        // 8 cluster objects, a plan per node (4), the master and a DaemonSet per node group (2).
        assert.equal(list.length, 8 + 4 + 1 + 2);
        for (const obj of list) assert.doesNotThrow(() => validateObject(obj), `${obj.kind}/${obj.metadata.name}`);
    });

    it("lists the Nodes' plan before the DaemonSets that read it", () => {
        const kinds = manifestList(m).map((o) => o.kind);
        assert.ok(kinds.lastIndexOf("Node") < kinds.indexOf("DaemonSet"));
        assert.equal(kinds[0], "Namespace");
    });

    it("the validator does catch a broken DaemonSet and a broken Node", () => {
        const broken = structuredClone(m.nodes[0]) as unknown as { spec: { selector: unknown } };
        broken.spec.selector = "name=ovnkube-node";
        assert.throws(() => validateObject(broken as unknown as KubeObject));
        const node = structuredClone(m.nodePlans[0]) as unknown as { metadata: { annotations: unknown } };
        node.metadata.annotations = { "k8s.ovn.org/node-id": 2 };
        assert.throws(() => validateObject(node as unknown as KubeObject));
    });
});

describe("names", () => {
    it("uses ovn-kubernetes' in-cluster names", () => {
        assert.equal(m.namespace.metadata.name, "ovn-kubernetes");
        assert.equal(m.hostNetworkNamespace.metadata.name, "ovn-host-network");
        assert.equal(m.serviceAccount.metadata.name, "ovn");
        assert.equal(m.configMap.metadata.name, "ovn-config");
        assert.equal(m.clusterRole.metadata.name, "ovn-kubernetes");
        assert.equal(m.master.metadata.name, "ovnkube-master");
        assert.deepEqual(m.nodes.map((ds) => ds.metadata.name), ["ovnkube-node-default", "ovnkube-node-breth0-10-19-188-1"]);
        for (const obj of [m.serviceAccount, m.configMap, m.role, m.roleBinding, ...daemonSets]) {
            assert.equal(obj.metadata.namespace, "ovn-kubernetes", obj.kind);
        }
    });

    it("follows the model's namespace", () => {
        const other = kubeManifests(kubeModel({ namespace: "openshift-ovn-kubernetes" }));
        assert.equal(other.namespace.metadata.name, "openshift-ovn-kubernetes");
        for (const ds of other.nodes) assert.equal(ds.metadata.namespace, "openshift-ovn-kubernetes");
        assert.equal(other.clusterRoleBinding.subjects[0].namespace, "openshift-ovn-kubernetes");
    });
});

describe("ConfigMap ovn-config", () => {
    it("holds the model's data and no credentials", () => {
        assert.deepEqual(m.configMap.data, kubeModel().config);
        for (const key of Object.keys(m.configMap.data)) assert.doesNotMatch(key, /token|cert/i);
    });
});

for (const [i, ds] of daemonSets.entries()) {
    describe(`DaemonSet ${ds.metadata.name}`, () => {
        const pod = ds.spec.template.spec;

        it("selects exactly the pods of its template", () => {
            for (const [k, v] of Object.entries(ds.spec.selector.matchLabels)) {
                assert.equal(ds.spec.template.metadata.labels[k], v, k);
            }
            assert.deepEqual(ds.spec.selector.matchLabels, { name: ds.metadata.name });
        });

        it("runs in the host network, as ovn, tolerating every taint", () => {
            assert.equal(pod.hostNetwork, true);
            assert.equal(pod.dnsPolicy, "Default");
            assert.equal(pod.serviceAccountName, "ovn");
            assert.deepEqual(pod.tolerations, [{ operator: "Exists" }]);
            assert.equal(ds.spec.updateStrategy.type, "RollingUpdate");
            assert.ok(ds.spec.updateStrategy.rollingUpdate.maxUnavailable);
        });

        it("uses the model's image in every container, with resource requests", () => {
            for (const c of containers(ds)) {
                assert.equal(c.image, "registry.example.com/ovn-kube:v1.0.0", c.name);
                assert.ok(c.resources.requests.cpu && c.resources.requests.memory, c.name);
            }
        });

        it("selects its nodes by name one per term, the only form the API server accepts", () => {
            const terms = pod.affinity?.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms ?? [];
            assert.ok(terms.length > 0);
            for (const t of terms) {
                assert.equal(t.matchFields.length, 1);
                assert.equal(t.matchFields[0].key, "metadata.name");
                assert.equal(t.matchFields[0].values.length, 1, JSON.stringify(t));
            }
        });

        it("mounts only volumes it declares", () => {
            const declared = new Set((pod.volumes ?? []).map((v) => v.name));
            for (const c of containers(ds)) {
                for (const mount of c.volumeMounts ?? []) assert.ok(declared.has(mount.name), `${c.name}: ${mount.name}`);
            }
        });

        it("takes its environment from keys that exist in ovn-config", () => {
            for (const c of containers(ds)) {
                for (const e of c.env ?? []) {
                    const ref = e.valueFrom.configMapKeyRef;
                    if (ref === undefined) continue;
                    assert.equal(ref.name, "ovn-config");
                    assert.ok(ref.key in m.configMap.data, `${e.name} <- ${ref.key}`);
                    assert.equal(ref.optional, false);
                }
            }
        });

        it("expands in its arguments only variables it defines", () => {
            for (const c of containers(ds)) {
                const defined = new Set((c.env ?? []).map((e) => e.name));
                for (const arg of [...c.command, ...(c.args ?? [])]) {
                    for (const [, name] of arg.matchAll(/\$\(([A-Z0-9_]+)\)/g)) {
                        assert.ok(defined.has(name), `${c.name}: $(${name})`);
                    }
                }
            }
        });

        it("rolls its pods when ovn-config changes", () => {
            const hash = ds.spec.template.metadata.annotations[CONFIG_HASH_ANNOTATION];
            const changed = kubeManifests(kubeModel({ config: { ...kubeModel().config, mtu: "1300" } }));
            const other = [changed.master, ...changed.nodes][i];
            assert.match(hash, /^[0-9a-f]{64}$/);
            assert.notEqual(other.spec.template.metadata.annotations[CONFIG_HASH_ANNOTATION], hash);
            assert.equal(kubeManifests(kubeModel()).master.spec.template.metadata.annotations[CONFIG_HASH_ANNOTATION],
                m.master.spec.template.metadata.annotations[CONFIG_HASH_ANNOTATION]);
        });
    });
}
