// ovnkube's permissions, per identity and architecture: what upstream's 1.3 chart grants for the
// calls the binaries make with every optional feature off, and nothing beyond. The control plane
// (interconnect: the cluster manager; centralized: the master) and the nodes run as accounts of
// their own; whichever runs the network controller (the master, or with interconnect every node's
// ovnkube-controller) gets its rules.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { kubeManifests } from "../../components/kube/manifests";
import type { PolicyRule } from "../../components/kube/types";
import { bothArchitectures, kubeModel } from "./fixture";

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

for (const [architecture, model] of bothArchitectures()) {
    const m = kubeManifests(model);
    const ic = architecture === "interconnect";
    const controlPlaneAccount = ic ? "ovnkube-cluster-manager" : "ovnkube-master";
    // Who runs the network controller (network policies, pod and service annotations).
    const controllerRole = ic ? "node" : "control-plane";

    describe(`RBAC (${architecture})`, () => {
        it("has no wildcard group, resource or verb", () => {
            for (const r of [...m.roles["control-plane"].clusterRole.rules, ...m.roles.node.clusterRole.rules, ...m.role.rules]) {
                for (const v of [...r.apiGroups, ...r.resources, ...r.verbs]) assert.ok(!v.includes("*"), JSON.stringify(r));
            }
        });

        it("gives the control plane and the nodes an account each, bound to a ClusterRole each in the model's namespace", () => {
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
                assert.deepEqual(r.clusterRoleBinding.roleRef, { apiGroup: "rbac.authorization.k8s.io", kind: "ClusterRole", name: clusterRole });
                assert.deepEqual(r.clusterRoleBinding.subjects, [{ kind: "ServiceAccount", name: account, namespace: "ovn-kubernetes" }]);
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

                it(controller ? "runs the network controller: reads network policies, annotates pods and services through status" : "runs no network controller: no network policies, pods or services to annotate", () => {
                    for (const verb of READ) assert.equal(allows(rules, "networking.k8s.io", "networkpolicies", verb), controller, verb);
                    for (const resource of ["pods/status", "services/status"]) {
                        for (const verb of STATUS_WRITES) assert.equal(allows(rules, "", resource, verb), controller, `${verb} ${resource}`);
                    }
                    // Only a zone's controller (interconnect) writes the namespaces' status.
                    for (const verb of STATUS_WRITES) assert.equal(allows(rules, "", "namespaces/status", verb), controller && ic, `${verb} namespaces/status`);
                });

                it("grants nothing for disabled features, identity mode or ovnkube.sh", () => {
                    const groups = new Set(rules.flatMap((r) => r.apiGroups));
                    assert.deepEqual([...groups].sort(), controller ? ["", "discovery.k8s.io", "networking.k8s.io"] : ["", "discovery.k8s.io"]);
                    assert.ok(!allows(rules, "", "endpoints", "list"), "service backends come from EndpointSlices");
                    assert.ok(!allows(rules, "", "nodes/status", "get"));
                    assert.ok(!allows(rules, "k8s.ovn.org", "egressips", "list"));
                    assert.ok(!rules.some((r) => r.resources.includes("certificatesigningrequests")));
                });

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
                assert.deepEqual(m.roleBinding.subjects, [{ kind: "ServiceAccount", name: controlPlaneAccount, namespace: "ovn-kubernetes" }]);
            });
        });
    });
}

describe("RBAC follows the model's namespace", () => {
    it("puts the accounts, the Role and every binding's subject there", () => {
        const m = kubeManifests(kubeModel({ namespace: "openshift-ovn-kubernetes" }));
        for (const r of Object.values(m.roles)) {
            assert.equal(r.serviceAccount.metadata.namespace, "openshift-ovn-kubernetes");
            assert.equal(r.clusterRoleBinding.subjects[0].namespace, "openshift-ovn-kubernetes");
        }
        assert.equal(m.role.metadata.namespace, "openshift-ovn-kubernetes");
        assert.equal(m.roleBinding.subjects[0].namespace, "openshift-ovn-kubernetes");
    });
});
