// ovnkube's permissions: enough for the master and node controllers, nothing beyond.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { kubeManifests } from "../../components/kube/manifests";
import type { PolicyRule } from "../../components/kube/types";
import { kubeModel } from "./fixture";

const m = kubeManifests(kubeModel());

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

describe("ClusterRole ovn-kubernetes", () => {
    const rules = m.clusterRole.rules;

    it("has no wildcard group, resource or verb", () => {
        for (const r of [...rules, ...m.role.rules]) {
            for (const v of [...r.apiGroups, ...r.resources, ...r.verbs]) assert.ok(!v.includes("*"), JSON.stringify(r));
        }
    });

    it("lets the controllers watch what they translate into OVN", () => {
        for (const resource of ["pods", "nodes", "services", "endpoints", "namespaces"]) {
            for (const verb of ["get", "list", "watch"]) assert.ok(allows(rules, "", resource, verb), `${verb} ${resource}`);
        }
        assert.ok(allows(rules, "networking.k8s.io", "networkpolicies", "watch"));
        assert.ok(allows(rules, "discovery.k8s.io", "endpointslices", "watch"));
    });

    it("lets them annotate nodes and pods, directly or through status", () => {
        assert.ok(allows(rules, "", "nodes", "patch"));
        assert.ok(allows(rules, "", "pods", "patch"));
        assert.ok(allows(rules, "", "nodes/status", "patch"));
        assert.ok(allows(rules, "", "pods/status", "update"));
        assert.ok(allows(rules, "", "events", "create"));
    });

    it("grants no creation, deletion or secrets", () => {
        for (const verb of ["create", "delete", "deletecollection", "escalate", "bind", "impersonate"]) {
            for (const resource of ["pods", "nodes", "services", "namespaces", "secrets", "clusterroles"]) {
                assert.ok(!allows(rules, "", resource, verb), `${verb} ${resource}`);
            }
        }
        assert.ok(!allows(rules, "", "secrets", "get"));
        assert.ok(!allows(rules, "", "configmaps", "get"));
        assert.ok(!rules.some((r) => r.resources.includes("secrets")));
    });

    it("is bound to service account ovn in the model's namespace", () => {
        assert.deepEqual(m.clusterRoleBinding.roleRef, { apiGroup: "rbac.authorization.k8s.io", kind: "ClusterRole", name: "ovn-kubernetes" });
        assert.deepEqual(m.clusterRoleBinding.subjects, [{ kind: "ServiceAccount", name: "ovn", namespace: "ovn-kubernetes" }]);
    });
});

describe("Role ovn-kubernetes (leader election)", () => {
    const rules = m.role.rules;

    it("lets the masters take and renew their lock, as a ConfigMap or a Lease", () => {
        for (const [group, resource] of [["", "configmaps"], ["coordination.k8s.io", "leases"]]) {
            assert.ok(allows(rules, group, resource, "create"), resource);
            assert.ok(allows(rules, group, resource, "get", "ovn-kubernetes-master"), resource);
            assert.ok(allows(rules, group, resource, "update", "ovn-kubernetes-master"), resource);
        }
    });

    it("touches no other ConfigMap, ovn-config included", () => {
        assert.ok(!allows(rules, "", "configmaps", "get", "ovn-config"));
        assert.ok(!allows(rules, "", "configmaps", "update", "ovn-config"));
        assert.ok(!allows(rules, "", "configmaps", "delete", "ovn-kubernetes-master"));
        assert.ok(!allows(rules, "", "configmaps", "list"));
    });

    it("lives in the model's namespace and is bound to ovn there", () => {
        assert.equal(m.role.metadata.namespace, "ovn-kubernetes");
        assert.equal(m.roleBinding.metadata.namespace, "ovn-kubernetes");
        assert.deepEqual(m.roleBinding.roleRef, { apiGroup: "rbac.authorization.k8s.io", kind: "Role", name: "ovn-kubernetes" });
        assert.deepEqual(m.roleBinding.subjects, [{ kind: "ServiceAccount", name: "ovn", namespace: "ovn-kubernetes" }]);
    });
});
