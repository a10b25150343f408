// ovnkube's permissions: what upstream v1.0.0 grants for the calls the binaries make with every
// optional feature off, and nothing beyond.
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

    it("lets the controllers watch what their informers list", () => {
        for (const resource of ["pods", "nodes", "services", "namespaces"]) {
            for (const verb of ["get", "list", "watch"]) assert.ok(allows(rules, "", resource, verb), `${verb} ${resource}`);
        }
        for (const verb of ["get", "list", "watch"]) {
            assert.ok(allows(rules, "networking.k8s.io", "networkpolicies", verb));
            assert.ok(allows(rules, "discovery.k8s.io", "endpointslices", verb));
        }
    });

    it("lets them annotate nodes, pods and services through status only, and record events", () => {
        for (const resource of ["nodes/status", "pods/status", "services/status"]) {
            for (const verb of ["patch", "update"]) assert.ok(allows(rules, "", resource, verb), `${verb} ${resource}`);
        }
        for (const resource of ["nodes", "pods", "services"]) {
            for (const verb of ["patch", "update"]) assert.ok(!allows(rules, "", resource, verb), `${verb} ${resource}`);
        }
        for (const verb of ["create", "patch", "update"]) assert.ok(allows(rules, "", "events", verb));
    });

    it("grants nothing for disabled features, identity mode or ovnkube.sh", () => {
        const groups = new Set(rules.flatMap((r) => r.apiGroups));
        assert.deepEqual([...groups].sort(), ["", "discovery.k8s.io", "networking.k8s.io"]);
        assert.ok(!allows(rules, "", "endpoints", "list"), "service backends come from EndpointSlices");
        assert.ok(!allows(rules, "", "nodes/status", "get"));
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

    it("is bound to service account ovn in the model's namespace", () => {
        assert.deepEqual(m.clusterRoleBinding.roleRef, { apiGroup: "rbac.authorization.k8s.io", kind: "ClusterRole", name: "ovn-kubernetes" });
        assert.deepEqual(m.clusterRoleBinding.subjects, [{ kind: "ServiceAccount", name: "ovn", namespace: "ovn-kubernetes" }]);
    });
});

describe("Role ovn-kubernetes (leader election)", () => {
    const rules = m.role.rules;

    it("lets the masters take and renew their Lease, ovn-kubernetes-master", () => {
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

    it("lives in the model's namespace and is bound to ovn there", () => {
        assert.equal(m.role.metadata.namespace, "ovn-kubernetes");
        assert.equal(m.roleBinding.metadata.namespace, "ovn-kubernetes");
        assert.deepEqual(m.roleBinding.roleRef, { apiGroup: "rbac.authorization.k8s.io", kind: "Role", name: "ovn-kubernetes" });
        assert.deepEqual(m.roleBinding.subjects, [{ kind: "ServiceAccount", name: "ovn", namespace: "ovn-kubernetes" }]);
    });
});
