// Every object validates against the Kubernetes OpenAPI schema, and the DaemonSets hold together:
// selectors, placement, privileges, volumes, environment and arguments, in both architectures.
// The release's CRDs, which the component reads when the program runs, parse and validate too.
import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { pathToFileURL } from "node:url";
import { describe, it } from "node:test";
import { CustomResourceDefinition } from "kubernetes-models/apiextensions.k8s.io/v1/CustomResourceDefinition";
import { kubeManifests, manifestList, type KubeManifests } from "../../components/kube/manifests";
import { CONFIG_HASH_ANNOTATION } from "../../components/kube/daemonset";
import { NODE_PLAN_HASH_ANNOTATION } from "../../components/kube/nodeAnnotations";
import { loadCrds, parseCrds } from "../../components/kube/crds";
import type { Container, DaemonSet as DaemonSetObject, KubeObject } from "../../components/kube/objectTypes";
import type { KubeModel } from "../../components/model/types";
import { bothArchitectures, interconnectModel, kubeModel } from "./fixture";
import { validateObject } from "./schema";

const containers = (ds: DaemonSetObject): Container[] => [
    ...(ds.spec.template.spec.initContainers ?? []),
    ...ds.spec.template.spec.containers,
];
/** The control plane's, each node group's, and with node identities ovnkube-identity's. */
const daemonSetsOf = (m: KubeManifests) => [m.controlPlane, ...m.nodes, ...(m.identity ? [m.identity.daemonSet] : [])];
/** The fixture in the same architecture as `model`, with other overrides. */
const sameArchitecture = (model: KubeModel, overrides: Partial<KubeModel>) =>
    model.architecture === "interconnect" ? interconnectModel(overrides) : kubeModel(overrides);

for (const [architecture, model] of bothArchitectures()) {
    const m = kubeManifests(model);
    const ic = architecture === "interconnect";
    const controlPlaneAccount = ic ? "ovnkube-cluster-manager" : "ovnkube-master";
    /** The account a DaemonSet's pods run as and the app label they share: every node group's is ovnkube-node. */
    const runsAs = (ds: DaemonSetObject): [account: string, app: string] =>
        ds === m.controlPlane
            ? [controlPlaneAccount, ds.metadata.name]
            : ds === m.identity?.daemonSet
              ? ["ovnkube-identity", "ovnkube-identity"]
              : ["ovnkube-node", "ovnkube-node"];

    describe(`${architecture}: schema`, () => {
        it("every object validates against the Kubernetes OpenAPI schema", () => {
            const list = manifestList(m);
            // 2 namespaces, ConfigMap, account + ClusterRole + binding per role (2), Role and binding;
            // a plan per node (4); the control plane and a DaemonSet per node group (2); with node
            // identities ovnkube-identity's account, ClusterRole, Role, their bindings and DaemonSet.
            assert.equal(list.length, 11 + 4 + 1 + 2 + (model.identity ? 6 : 0));
            for (const obj of list) assert.doesNotThrow(() => validateObject(obj), `${obj.kind}/${obj.metadata.name}`);
        });

        it("lists the Nodes' plan before the DaemonSets that read it, and what the pods use before the pods", () => {
            const list = manifestList(m);
            const kinds = list.map((o) => o.kind);
            assert.equal(kinds[0], "Namespace");
            assert.ok(kinds.lastIndexOf("Node") < kinds.indexOf("DaemonSet"));
            for (const kind of ["ConfigMap", "ServiceAccount", "ClusterRoleBinding", "RoleBinding"] as const)
                assert.ok(kinds.lastIndexOf(kind) < kinds.indexOf("DaemonSet"), kind);
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

    describe(`${architecture}: names`, () => {
        it("uses ovn-kubernetes' in-cluster names", () => {
            assert.equal(m.namespace.metadata.name, "ovn-kubernetes");
            assert.equal(m.hostNetworkNamespace.metadata.name, "ovn-host-network");
            assert.equal(m.roles["control-plane"].serviceAccount.metadata.name, controlPlaneAccount);
            assert.equal(m.roles.node.serviceAccount.metadata.name, "ovnkube-node");
            assert.equal(m.configMap.metadata.name, "ovn-config");
            assert.equal(m.roles["control-plane"].clusterRole.metadata.name, "ovn-kubernetes-control-plane");
            assert.equal(m.roles.node.clusterRole.metadata.name, "ovn-kubernetes-node");
            assert.equal(m.role.metadata.name, "ovn-kubernetes");
            assert.equal(m.controlPlane.metadata.name, ic ? "ovnkube-control-plane" : "ovnkube-master");
            assert.deepEqual(
                m.nodes.map((ds) => ds.metadata.name),
                ["ovnkube-node-default", "ovnkube-node-breth0-10-19-188-1"],
            );
            const identity = m.identity ? [m.identity.serviceAccount, m.identity.role, m.identity.roleBinding] : [];
            const namespaced = [
                ...Object.values(m.roles).map((r) => r.serviceAccount),
                m.configMap,
                m.role,
                m.roleBinding,
                ...identity,
                ...daemonSetsOf(m),
            ];
            for (const obj of namespaced) assert.equal(obj.metadata.namespace, "ovn-kubernetes", `${obj.kind}/${obj.metadata.name}`);
        });

        it("follows the model's namespace", () => {
            const other = kubeManifests(sameArchitecture(model, { namespace: "openshift-ovn-kubernetes" }));
            assert.equal(other.namespace.metadata.name, "openshift-ovn-kubernetes");
            for (const ds of daemonSetsOf(other)) assert.equal(ds.metadata.namespace, "openshift-ovn-kubernetes");
            const bindings = [
                ...Object.values(other.roles).map((r) => r.clusterRoleBinding),
                other.roleBinding,
                ...(other.identity ? [other.identity.clusterRoleBinding, other.identity.roleBinding] : []),
            ];
            const accounts = bindings.flatMap((b) => b.subjects).filter((s) => s.kind === "ServiceAccount");
            // Every binding names an account but the nodes' with node identities, which names their group.
            assert.equal(accounts.length, bindings.length - (model.identity ? 1 : 0));
            for (const s of accounts) assert.equal(s.namespace, "openshift-ovn-kubernetes", s.name);
        });
    });

    describe(`${architecture}: ConfigMap ovn-config`, () => {
        it(`holds the model's data and no credentials${ic ? ", and no database addresses" : ""}`, () => {
            assert.deepEqual(m.configMap.data, model.config);
            for (const key of Object.keys(m.configMap.data)) assert.doesNotMatch(key, /token|cert/i);
            // Interconnect: each zone's ovnkube uses its own databases' unix sockets.
            for (const key of ["OvnNorth", "OvnSouth"]) assert.equal(key in m.configMap.data, !ic, key);
        });
    });

    for (const [i, ds] of daemonSetsOf(m).entries()) {
        const [account, app] = runsAs(ds);
        describe(`${architecture}: DaemonSet ${ds.metadata.name}`, () => {
            const pod = ds.spec.template.spec;

            it("selects exactly the pods of its template", () => {
                for (const [k, v] of Object.entries(ds.spec.selector.matchLabels)) {
                    assert.equal(ds.spec.template.metadata.labels[k], v, k);
                }
                assert.deepEqual(ds.spec.selector.matchLabels, { name: ds.metadata.name });
                assert.equal(ds.spec.template.metadata.labels.app, app);
            });

            it(`runs in the host network, as ${account}, tolerating every taint`, () => {
                assert.equal(pod.hostNetwork, true);
                assert.equal(pod.dnsPolicy, "Default");
                assert.equal(pod.serviceAccountName, account);
                assert.deepEqual(pod.tolerations, [{ operator: "Exists" }]);
                assert.equal(ds.spec.updateStrategy.type, "RollingUpdate");
                assert.ok(ds.spec.updateStrategy.rollingUpdate.maxUnavailable);
            });

            it("uses the model's image in every container, with resource requests", () => {
                for (const c of containers(ds)) {
                    assert.equal(c.image, "registry.example.com/ovn-kube:v1.3.0", c.name);
                    assert.ok(c.resources.requests.cpu && c.resources.requests.memory, c.name);
                }
            });

            it("selects its nodes by their plans' group label, or by name one per term, the only form the API server accepts", () => {
                const terms = pod.affinity?.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms ?? [];
                if (terms.length === 0) assert.equal(pod.nodeSelector?.["ovn-kubernetes-as-code/ovnkube-node-group"], ds.metadata.name);
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

            it("rolls its pods when ovn-config changes, and only then", () => {
                const hash = ds.spec.template.metadata.annotations[CONFIG_HASH_ANNOTATION];
                const changed = kubeManifests(sameArchitecture(model, { config: { ...model.config, mtu: "1300" } }));
                assert.match(hash, /^[0-9a-f]{64}$/);
                assert.notEqual(daemonSetsOf(changed)[i].spec.template.metadata.annotations[CONFIG_HASH_ANNOTATION], hash);
                const again = kubeManifests(sameArchitecture(model, {}));
                assert.equal(daemonSetsOf(again)[i].spec.template.metadata.annotations[CONFIG_HASH_ANNOTATION], hash);
            });
        });
    }
}

describe("the control plane rolls when the node plan changes, so that it reserves a new node's planned id", () => {
    for (const [architecture, model] of bothArchitectures()) {
        it(`${architecture}: a node added or re-planned changes the control plane's template and no node's`, () => {
            const before = kubeManifests(model);
            const extra = { ...model.nodes[0], name: "node9", nodeId: 4999, subnet: "10.131.254.0/24" };
            const groups = model.nodeGroups.map((g, i) => (i === 0 ? { ...g, nodes: [...g.nodes, extra.name] } : g));
            const grown = kubeManifests(sameArchitecture(model, { nodes: [...model.nodes, extra], nodeGroups: groups }));
            const hash = (ds: DaemonSetObject) => ds.spec.template.metadata.annotations[NODE_PLAN_HASH_ANNOTATION];
            assert.match(hash(before.controlPlane), /^[0-9a-f]{64}$/);
            assert.notEqual(hash(grown.controlPlane), hash(before.controlPlane));
            const moved = kubeManifests(
                sameArchitecture(model, { nodes: model.nodes.map((n, i) => (i === 0 ? { ...n, nodeId: 4998 } : n)) }),
            );
            assert.notEqual(hash(moved.controlPlane), hash(before.controlPlane));
            assert.equal(
                hash(kubeManifests(sameArchitecture(model, {})).controlPlane),
                hash(before.controlPlane),
                "the same plan rolls nothing",
            );
            for (const ds of before.nodes) assert.equal(hash(ds), undefined, "ovnkube-node does not restart for another node's plan");
        });
    }
});

describe("the release's CRDs", () => {
    it("are read from the model's URLs: every one a k8s.ovn.org CustomResourceDefinition that validates", async () => {
        const model = interconnectModel();
        assert.ok(
            model.crdUrls.every((u) => u.startsWith("file:///")),
            "the fixture reads the lab's copy",
        );
        const crds = await loadCrds(model.crdUrls);
        assert.equal(crds.length, model.crdUrls.length);
        assert.deepEqual(
            crds.map((c) => c.metadata.name).sort(),
            [
                "adminpolicybasedexternalroutes",
                "clusternetworkconnects",
                "clusteruserdefinednetworks",
                "egressfirewalls",
                "egressips",
                "egressqoses",
                "egressservices",
                "networkqoses",
                "routeadvertisements",
                "userdefinednetworks",
                "vteps",
            ].map((n) => `${n}.k8s.ovn.org`),
        );
        for (const crd of crds) {
            assert.equal((crd.spec as { group: string }).group, "k8s.ovn.org");
            assert.doesNotThrow(() => new CustomResourceDefinition(crd as never).validate(), crd.metadata.name);
        }
    });

    it("a URL that cannot be read fails naming it and the mirror setting", async () => {
        const missing = pathToFileURL(path.join(os.tmpdir(), "no-such-dir", "k8s.ovn.org_egressips.yaml")).href;
        await assert.rejects(loadCrds([missing]), (e: Error) => e.message.includes(missing) && /set ovnkube\.crdMirror/.test(e.message));
    });

    it("anything but a CustomResourceDefinition in a CRD file is refused, naming the file", async () => {
        const dir = fs.mkdtempSync(path.join(os.tmpdir(), "crds-"));
        try {
            const file = path.join(dir, "k8s.ovn.org_egressips.yaml");
            fs.writeFileSync(file, "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\n");
            const url = pathToFileURL(file).href;
            await assert.rejects(loadCrds([url]), (e: Error) => e.message.startsWith(`${url}: holds a ConfigMap`));
            assert.throws(() => parseCrds("u", "a: [1"), { message: /^u: / });
            assert.deepEqual(parseCrds("u", "---\n"), []);
        } finally {
            fs.rmSync(dir, { recursive: true, force: true });
        }
    });

    it("reads a CRD file as kubectl does: a quoted description whose next line is less indented than its key", () => {
        // The shape of multi-networkpolicy v1.0.1's scheme.yml, which strict YAML 1.2 parsers refuse.
        const text = [
            "apiVersion: apiextensions.k8s.io/v1",
            "kind: CustomResourceDefinition",
            "metadata:",
            "  name: widgets.example.com",
            "spec:",
            "  versions:",
            "    - name: v1",
            '      description: "one line',
            '    and the next"',
            "      served: true",
        ].join("\n");
        const [crd] = parseCrds("u", text);
        assert.deepEqual(crd.spec.versions, [{ name: "v1", description: "one line and the next", served: true }]);
    });
});
