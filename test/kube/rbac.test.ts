// ovnkube's permissions, per identity and architecture: what upstream's 1.3 chart grants for the
// calls the binaries make, first with every optional feature off, then per feature, and nothing beyond. The control plane
// (interconnect: the cluster manager; centralized: the master) and the nodes run as accounts of
// their own; whichever runs the network controller (the master, or with interconnect every node's
// ovnkube-controller) gets its rules. With node identities (the interconnect fixture) the nodes'
// role is their certificates' group's, with the certificate requests they renew it with, and
// ovnkube-identity approves those requests for the API server's client signer only.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { kubeManifests } from "../../components/kube/manifests";
import type { GroupSubject, PolicyRule, ServiceAccountSubject } from "../../components/kube/objectTypes";
import { bothArchitectures, interconnectModel, kubeModel } from "./fixture";
import { FEATURE_KEYS, featureSettings } from "../../components/config/features";
import type { KubeModel } from "../../components/model/types";

/** Every optional feature off. */
const NO_FEATURES = featureSettings(Object.fromEntries(FEATURE_KEYS.map((k) => [k, false])));

/** RBAC's own decision for one request: some rule names the group, resource, verb (and name, if limited). */
function allows(rules: PolicyRule[], group: string, resource: string, verb: string, name?: string): boolean {
    return rules.some(
        (r) =>
            r.apiGroups.includes(group) &&
            r.resources.includes(resource) &&
            r.verbs.includes(verb) &&
            (r.resourceNames === undefined || (name !== undefined && r.resourceNames.includes(name))),
    );
}

const READ = ["get", "list", "watch"];
const STATUS_WRITES = ["patch", "update"];
const CERTIFICATES = "certificates.k8s.io";
const CLIENT_SIGNER = "kubernetes.io/kube-apiserver-client";
const namespaceOf = (s: ServiceAccountSubject | GroupSubject) => (s.kind === "ServiceAccount" ? s.namespace : undefined);

for (const [architecture, model] of bothArchitectures({ features: NO_FEATURES })) {
    const m = kubeManifests(model);
    const ic = architecture === "interconnect";
    const controlPlaneAccount = ic ? "ovnkube-cluster-manager" : "ovnkube-master";
    // Who runs the network controller (network policies, pod and service annotations).
    const controllerRole = ic ? "node" : "control-plane";

    describe(`RBAC (${architecture}, every optional feature off)`, () => {
        it("has no wildcard group, resource or verb", () => {
            const identity = m.identity ? [...m.identity.clusterRole.rules, ...m.identity.role.rules] : [];
            for (const r of [
                ...m.roles["control-plane"].clusterRole.rules,
                ...m.roles.node.clusterRole.rules,
                ...m.role.rules,
                ...identity,
            ]) {
                for (const v of [...r.apiGroups, ...r.resources, ...r.verbs]) assert.ok(!v.includes("*"), JSON.stringify(r));
            }
        });

        it(`gives the control plane and the nodes an account each, a ClusterRole each bound to ${model.identity ? "the control plane's account and the nodes' group" : "its account"}`, () => {
            const accounts = [
                ["control-plane", controlPlaneAccount, "ovn-kubernetes-control-plane"],
                ["node", "ovnkube-node", "ovn-kubernetes-node"],
            ] as const;
            for (const [role, account, clusterRole] of accounts) {
                const r = m.roles[role];
                assert.equal(r.serviceAccount.metadata.name, account);
                assert.equal(r.serviceAccount.metadata.namespace, "ovn-kubernetes");
                assert.equal(r.clusterRole.metadata.name, clusterRole);
                assert.equal(r.clusterRoleBinding.metadata.name, clusterRole);
                assert.deepEqual(r.clusterRoleBinding.roleRef, {
                    apiGroup: "rbac.authorization.k8s.io",
                    kind: "ClusterRole",
                    name: clusterRole,
                });
                const holder =
                    role === "node" && model.identity
                        ? { kind: "Group", name: "system:ovn-nodes", apiGroup: "rbac.authorization.k8s.io" }
                        : { kind: "ServiceAccount", name: account, namespace: "ovn-kubernetes" };
                assert.deepEqual(r.clusterRoleBinding.subjects, [holder]);
            }
        });

        for (const role of ["control-plane", "node"] as const) {
            const rules = m.roles[role].clusterRole.rules;
            const controller = role === controllerRole;

            describe(`ClusterRole ovn-kubernetes-${role}`, () => {
                it("lets it watch what its informers list", () => {
                    for (const resource of ["pods", "nodes", "services", "namespaces"]) {
                        for (const verb of READ) assert.ok(allows(rules, "", resource, verb), `${verb} ${resource}`);
                    }
                    for (const verb of READ) assert.ok(allows(rules, "discovery.k8s.io", "endpointslices", verb));
                });

                it("lets it annotate nodes through status only, and record events", () => {
                    for (const verb of STATUS_WRITES) assert.ok(allows(rules, "", "nodes/status", verb), verb);
                    for (const resource of ["nodes", "pods", "services", "namespaces"]) {
                        for (const verb of STATUS_WRITES) assert.ok(!allows(rules, "", resource, verb), `${verb} ${resource}`);
                    }
                    for (const verb of ["create", "patch", "update"]) assert.ok(allows(rules, "", "events", verb));
                });

                it(
                    controller
                        ? "runs the network controller: reads network policies, annotates pods and services through status"
                        : "runs no network controller: no network policies, pods or services to annotate",
                    () => {
                        for (const verb of READ)
                            assert.equal(allows(rules, "networking.k8s.io", "networkpolicies", verb), controller, verb);
                        for (const resource of ["pods/status", "services/status"]) {
                            for (const verb of STATUS_WRITES)
                                assert.equal(allows(rules, "", resource, verb), controller, `${verb} ${resource}`);
                        }
                        // Only a zone's controller (interconnect) writes the namespaces' status.
                        for (const verb of STATUS_WRITES)
                            assert.equal(allows(rules, "", "namespaces/status", verb), controller && ic, `${verb} namespaces/status`);
                    },
                );

                // The nodes' own certificates are requested by ovnkube-node itself, with node identities.
                const requests = role === "node" && model.identity !== undefined;

                it(`grants nothing for disabled features or ovnkube.sh${requests ? "" : ", nor certificate requests"}`, () => {
                    const groups = new Set(rules.flatMap((r) => r.apiGroups));
                    const expected = [
                        "",
                        "discovery.k8s.io",
                        ...(requests ? [CERTIFICATES] : []),
                        ...(controller ? ["networking.k8s.io"] : []),
                    ];
                    assert.deepEqual([...groups].sort(), expected.sort());
                    assert.ok(!allows(rules, "", "endpoints", "list"), "service backends come from EndpointSlices");
                    assert.ok(!allows(rules, "", "nodes/status", "get"));
                    assert.ok(!allows(rules, "k8s.ovn.org", "egressips", "list"));
                    assert.equal(
                        rules.some((r) => r.resources.includes("certificatesigningrequests")),
                        requests,
                    );
                });

                it(
                    requests
                        ? "lets the nodes request and watch their certificates, not approve or sign them"
                        : "grants no certificate requests",
                    () => {
                        for (const verb of ["create", ...READ])
                            assert.equal(allows(rules, CERTIFICATES, "certificatesigningrequests", verb), requests, verb);
                        for (const verb of ["update", "patch", "delete"])
                            assert.ok(!allows(rules, CERTIFICATES, "certificatesigningrequests", verb), verb);
                        assert.ok(!allows(rules, CERTIFICATES, "certificatesigningrequests/approval", "update"));
                        assert.ok(!allows(rules, CERTIFICATES, "certificatesigningrequests/status", "update"));
                        assert.ok(!allows(rules, CERTIFICATES, "signers", "approve", CLIENT_SIGNER));
                    },
                );

                it("grants no creation, deletion, secrets or ConfigMaps", () => {
                    for (const verb of ["create", "delete", "deletecollection", "escalate", "bind", "impersonate"]) {
                        for (const resource of ["pods", "nodes", "services", "namespaces", "secrets", "clusterroles"]) {
                            assert.ok(!allows(rules, "", resource, verb), `${verb} ${resource}`);
                        }
                    }
                    assert.ok(!rules.some((r) => r.resources.includes("secrets") || r.resources.includes("configmaps")));
                });
            });
        }

        describe("Role ovn-kubernetes (leader election)", () => {
            const rules = m.role.rules;

            it("lets the control plane take and renew its Lease, ovn-kubernetes-master", () => {
                assert.ok(allows(rules, "coordination.k8s.io", "leases", "create"));
                assert.ok(allows(rules, "coordination.k8s.io", "leases", "get", "ovn-kubernetes-master"));
                assert.ok(allows(rules, "coordination.k8s.io", "leases", "update", "ovn-kubernetes-master"));
            });

            it("touches no other Lease and no ConfigMap, ovn-config included", () => {
                assert.ok(!allows(rules, "coordination.k8s.io", "leases", "get", "other-lock"));
                assert.ok(!allows(rules, "coordination.k8s.io", "leases", "delete", "ovn-kubernetes-master"));
                assert.ok(!allows(rules, "coordination.k8s.io", "leases", "list"));
                assert.ok(!rules.some((r) => r.resources.includes("configmaps")));
            });

            it(`lives in the model's namespace and is bound to the control plane's account, ${controlPlaneAccount}, only`, () => {
                assert.equal(m.role.metadata.namespace, "ovn-kubernetes");
                assert.equal(m.roleBinding.metadata.namespace, "ovn-kubernetes");
                assert.deepEqual(m.roleBinding.roleRef, { apiGroup: "rbac.authorization.k8s.io", kind: "Role", name: "ovn-kubernetes" });
                assert.deepEqual(m.roleBinding.subjects, [
                    { kind: "ServiceAccount", name: controlPlaneAccount, namespace: "ovn-kubernetes" },
                ]);
            });
        });
    });
}

describe("RBAC follows the model's namespace", () => {
    it("puts the accounts, the Role and every binding's subject there", () => {
        const m = kubeManifests(kubeModel({ namespace: "openshift-ovn-kubernetes" }));
        for (const r of Object.values(m.roles)) {
            assert.equal(r.serviceAccount.metadata.namespace, "openshift-ovn-kubernetes");
            assert.equal(namespaceOf(r.clusterRoleBinding.subjects[0]), "openshift-ovn-kubernetes");
        }
        assert.equal(m.role.metadata.namespace, "openshift-ovn-kubernetes");
        assert.equal(namespaceOf(m.roleBinding.subjects[0]), "openshift-ovn-kubernetes");
    });
});

describe("ovnkube-identity's RBAC, with node identities", () => {
    const m = kubeManifests(interconnectModel());
    const identity = m.identity!;
    const rules = identity.clusterRole.rules;
    const account = { kind: "ServiceAccount", name: "ovnkube-identity", namespace: "ovn-kubernetes" };

    it("exists only with node identities", () => {
        assert.ok(m.identity);
        assert.equal(kubeManifests(kubeModel()).identity, undefined);
        assert.equal(kubeManifests(interconnectModel({ identity: undefined })).identity, undefined);
    });

    it("approves the nodes' certificate requests for the API server's client signer, and no other signer's", () => {
        for (const verb of READ) assert.ok(allows(rules, CERTIFICATES, "certificatesigningrequests", verb), verb);
        assert.ok(allows(rules, CERTIFICATES, "certificatesigningrequests/approval", "update"));
        assert.ok(allows(rules, CERTIFICATES, "signers", "approve", CLIENT_SIGNER));
        for (const signer of [
            "kubernetes.io/kubelet-serving",
            "kubernetes.io/kube-apiserver-client-kubelet",
            "kubernetes.io/legacy-unknown",
        ]) {
            assert.ok(!allows(rules, CERTIFICATES, "signers", "approve", signer), signer);
        }
        assert.ok(!allows(rules, CERTIFICATES, "signers", "approve"), "only by name");
        // It neither asks for certificates nor signs them (the controller manager does).
        for (const [resource, verb] of [
            ["certificatesigningrequests", "create"],
            ["certificatesigningrequests/status", "update"],
            ["signers", "sign"],
        ]) {
            assert.ok(!allows(rules, CERTIFICATES, resource, verb, CLIENT_SIGNER), `${verb} ${resource}`);
        }
    });

    it("reads the Nodes the requests name, records events, and writes no object", () => {
        for (const verb of READ) assert.ok(allows(rules, "", "nodes", verb), verb);
        for (const verb of ["create", "patch", "update"]) assert.ok(allows(rules, "", "events", verb), verb);
        for (const resource of ["nodes", "nodes/status", "pods", "pods/status", "secrets"]) {
            for (const verb of ["create", "patch", "update", "delete"])
                assert.ok(!allows(rules, "", resource, verb), `${verb} ${resource}`);
        }
        assert.ok(!allows(rules, "", "secrets", "get"));
    });

    it("is bound to its own account in the model's namespace", () => {
        assert.equal(identity.serviceAccount.metadata.name, "ovnkube-identity");
        assert.equal(identity.clusterRole.metadata.name, "ovn-kubernetes-identity");
        assert.deepEqual(identity.clusterRoleBinding.roleRef, {
            apiGroup: "rbac.authorization.k8s.io",
            kind: "ClusterRole",
            name: "ovn-kubernetes-identity",
        });
        assert.deepEqual(identity.clusterRoleBinding.subjects, [account]);
        assert.deepEqual(identity.roleBinding.roleRef, {
            apiGroup: "rbac.authorization.k8s.io",
            kind: "Role",
            name: "ovn-kubernetes-identity",
        });
        assert.deepEqual(identity.roleBinding.subjects, [account]);
        const other = kubeManifests(interconnectModel({ namespace: "openshift-ovn-kubernetes" })).identity!;
        for (const obj of [other.serviceAccount, other.role, other.roleBinding, other.daemonSet])
            assert.equal(obj.metadata.namespace, "openshift-ovn-kubernetes", obj.kind);
        for (const b of [other.clusterRoleBinding, other.roleBinding]) assert.equal(namespaceOf(b.subjects[0]), "openshift-ovn-kubernetes");
    });

    it("takes and renews its own leader Lease, ovnkube-identity, and no other", () => {
        const lease = identity.role.rules;
        assert.equal(identity.role.metadata.namespace, "ovn-kubernetes");
        assert.ok(allows(lease, "coordination.k8s.io", "leases", "create"));
        for (const verb of ["get", "update"]) assert.ok(allows(lease, "coordination.k8s.io", "leases", verb, "ovnkube-identity"), verb);
        assert.ok(!allows(lease, "coordination.k8s.io", "leases", "update", "ovn-kubernetes-master"));
        assert.ok(!allows(lease, "coordination.k8s.io", "leases", "list"));
        assert.ok(!allows(lease, "coordination.k8s.io", "leases", "delete", "ovnkube-identity"));
    });
});

/** The rules of one account's ClusterRole. */
const rulesOf = (model: KubeModel, role: "control-plane" | "node") => kubeManifests(model).roles[role].clusterRole.rules;
const OVN = "k8s.ovn.org";
const ANP = "policy.networking.k8s.io";

describe("RBAC per feature, as the chart grants it", () => {
    const only = (...on: string[]) => featureSettings(Object.fromEntries(FEATURE_KEYS.map((k) => [k, on.includes(k)])));

    for (const [architecture, model] of bothArchitectures()) {
        const ic = architecture === "interconnect";
        it(`${architecture}: the chart's features give the network controller, the cluster manager and ovnkube-node their objects`, () => {
            const [controlPlane, node] = [rulesOf(model, "control-plane"), rulesOf(model, "node")];
            const controller = ic ? node : controlPlane;
            for (const r of ["egressips", "egressfirewalls", "egressqoses", "egressservices", "adminpolicybasedexternalroutes"]) {
                for (const verb of READ) assert.ok(allows(controller, OVN, r, verb), `controller ${verb} ${r}`);
                for (const verb of READ) assert.ok(allows(controlPlane, OVN, r, verb), `cluster manager ${verb} ${r}`);
            }
            for (const r of ["egressfirewalls/status", "egressqoses/status", "adminpolicybasedexternalroutes/status"]) {
                for (const verb of STATUS_WRITES) assert.ok(allows(controller, OVN, r, verb), `controller ${verb} ${r}`);
            }
            // The cluster manager assigns egress IPs and egress service hosts; no node does.
            for (const verb of STATUS_WRITES) {
                assert.ok(allows(controlPlane, OVN, "egressips", verb) && allows(controlPlane, OVN, "egressservices/status", verb), verb);
                assert.ok(!allows(node, OVN, "egressips", verb) && !allows(node, OVN, "egressservices/status", verb), verb);
            }
            // ovnkube-node reads what ovnkube.sh gives it; centralized, that is not the firewall or QoS.
            for (const r of ["egressips", "egressservices", "adminpolicybasedexternalroutes"]) assert.ok(allows(node, OVN, r, "watch"), r);
            assert.equal(allows(node, OVN, "egressfirewalls", "list"), ic);
            // No feature lets anyone write the objects themselves, or create or delete them.
            for (const rules of [controlPlane, node])
                for (const r of ["egressfirewalls", "egressqoses", "egressservices", "adminpolicybasedexternalroutes"])
                    for (const verb of ["create", "delete", "patch", "update"]) assert.ok(!allows(rules, OVN, r, verb), `${verb} ${r}`);
        });

        it(`${architecture}: a feature that is off grants nothing, one that is on only its own objects`, () => {
            const nqos = bothArchitectures({ features: only("networkQos") }).find(([a]) => a === architecture)![1];
            const groups = (m: KubeModel) => new Set([...rulesOf(m, "control-plane"), ...rulesOf(m, "node")].flatMap((r) => r.apiGroups));
            const resources = (m: KubeModel) =>
                [...rulesOf(m, "control-plane"), ...rulesOf(m, "node")]
                    .filter((r) => r.apiGroups.includes(OVN))
                    .flatMap((r) => r.resources);
            assert.deepEqual([...new Set(resources(nqos))].sort(), ["networkqoses", "networkqoses/status"]);
            assert.ok(!groups(nqos).has(ANP) && !groups(nqos).has("k8s.cni.cncf.io"));
            const anp = bothArchitectures({ features: only("adminNetworkPolicy") }).find(([a]) => a === architecture)![1];
            assert.ok(!groups(anp).has(OVN));
            const controller = rulesOf(anp, ic ? "node" : "control-plane");
            for (const r of ["adminnetworkpolicies", "baselineadminnetworkpolicies"])
                for (const verb of READ) assert.ok(allows(controller, ANP, r, verb), `${verb} ${r}`);
            for (const verb of STATUS_WRITES) assert.ok(allows(controller, ANP, "adminnetworkpolicies/status", verb), verb);
            // The cluster manager lists them and patches their status, as the chart has it.
            if (ic) {
                const cm = rulesOf(anp, "control-plane");
                assert.ok(allows(cm, ANP, "adminnetworkpolicies", "list") && !allows(cm, ANP, "adminnetworkpolicies", "watch"));
                assert.ok(
                    allows(cm, ANP, "baselineadminnetworkpolicies/status", "patch") &&
                        !allows(cm, ANP, "baselineadminnetworkpolicies/status", "update"),
                );
            }
            // Features without objects grant nothing.
            const plain = bothArchitectures({
                features: only("multicast", "serviceTemplates", "statelessNetworkPolicy", "allowIcmpNetworkPolicy"),
            }).find(([a]) => a === architecture)![1];
            assert.deepEqual(
                [...groups(plain)].sort(),
                [...groups(bothArchitectures({ features: NO_FEATURES }).find(([a]) => a === architecture)![1])].sort(),
            );
        });
    }

    it("grants each rule once per role, though two parts of one process grant it", () => {
        for (const [, model] of bothArchitectures())
            for (const role of ["control-plane", "node"] as const) {
                const rules = rulesOf(model, role).map((r) => JSON.stringify(r));
                assert.equal(new Set(rules).size, rules.length, role);
            }
    });
});
