// The Ovnkube component under Pulumi's mocks: what it registers, under which parent and provider,
// in which order, and that the kubeconfig never leaves secrecy.
import assert from "node:assert/strict";
import { before, describe, it } from "node:test";
import * as k8s from "@pulumi/kubernetes";
import * as pulumi from "@pulumi/pulumi";
import type { KubeModel } from "../../components/model/types";
import { kubeModel } from "./fixture";

const KUBECONFIG = "apiVersion: v1\nkind: Config\nusers:\n- name: admin\n  user:\n    token: s3cr3t-token\n";
const COMPONENT = "ovn-kubernetes:kubernetes:Ovnkube";
const CHILD_TYPES: Record<string, string> = {
    namespace: "kubernetes:core/v1:Namespace",
    "host-network-namespace": "kubernetes:core/v1:Namespace",
    "service-account": "kubernetes:core/v1:ServiceAccount",
    config: "kubernetes:core/v1:ConfigMap",
    "cluster-role": "kubernetes:rbac.authorization.k8s.io/v1:ClusterRole",
    "cluster-role-binding": "kubernetes:rbac.authorization.k8s.io/v1:ClusterRoleBinding",
    role: "kubernetes:rbac.authorization.k8s.io/v1:Role",
    "role-binding": "kubernetes:rbac.authorization.k8s.io/v1:RoleBinding",
    "master-0-plan": "kubernetes:core/v1:NodePatch",
    "master-1-plan": "kubernetes:core/v1:NodePatch",
    "worker-0-plan": "kubernetes:core/v1:NodePatch",
    "worker-1-plan": "kubernetes:core/v1:NodePatch",
    master: "kubernetes:apps/v1:DaemonSet",
    "node-default": "kubernetes:apps/v1:DaemonSet",
    "node-breth0-10-19-188-1": "kubernetes:apps/v1:DaemonSet",
};
const PLANS = ["master-0-plan", "master-1-plan", "worker-0-plan", "worker-1-plan"];
const DAEMON_SETS = ["master", "node-default", "node-breth0-10-19-188-1"];

interface Registered {
    type: string;
    name: string;
    inputs: Record<string, any>;
    provider?: string;
}
const registered: Registered[] = [];
/** dependsOn of every resource, by name, as the SDK saw it (recorded by a transformation). */
const dependsOn = new Map<string, pulumi.Resource[]>();
const names = new Map<pulumi.Resource, string>();

type OvnkubeModule = typeof import("../../components/kube/ovnkube");
let Ovnkube: OvnkubeModule["Ovnkube"];

const value = <T>(o: pulumi.Output<T>): Promise<T> => new Promise((resolve) => o.apply(resolve));
const byName = (name: string): Registered => {
    const r = registered.find((x) => x.name === name);
    assert.ok(r, `${name} registered`);
    return r;
};

/** URNs the mock monitor handed out; the mock records no parent, but a URN encodes it. */
function registeredUrns(): Iterable<string> {
    const monitor = pulumi.runtime.getMonitor() as unknown as { getRegisteredResources(): Map<string, unknown> };
    return monitor.getRegisteredResources().keys();
}

/** Lets the SDK finish registering everything created so far. */
async function settle(c: { namespace: pulumi.Output<string>; nodeDaemonSets: pulumi.Output<string[]> }): Promise<void> {
    await value(c.namespace);
    await value(c.nodeDaemonSets);
    await new Promise((r) => setTimeout(r, 50));
}

const record: pulumi.ResourceTransformation = (args) => {
    names.set(args.resource, args.name);
    // The component passes plain arrays of resources, never Outputs, so this cast holds.
    const deps = (args.opts.dependsOn ?? []) as pulumi.Resource | pulumi.Resource[];
    dependsOn.set(args.name, Array.isArray(deps) ? deps : [deps]);
    return undefined;
};

before(async () => {
    await pulumi.runtime.setMocks(
        {
            newResource: (args) => {
                registered.push({ type: args.type, name: args.name, inputs: args.inputs, provider: args.provider });
                return { id: `${args.name}-id`, state: args.inputs };
            },
            call: (args) => args.inputs,
        },
        "ovn-kubernetes",
        "test",
        false,
    );
    ({ Ovnkube } = await import("../../components/kube/ovnkube"));
});

describe("Ovnkube with a kubeconfig", () => {
    let component: InstanceType<OvnkubeModule["Ovnkube"]>;

    before(async () => {
        component = new Ovnkube("k", { model: kubeModel(), kubeconfig: KUBECONFIG }, { transformations: [record] });
        await settle(component);
    });

    it("registers itself with its type token and the model, without the kubeconfig", () => {
        const self = byName("k");
        assert.equal(self.type, COMPONENT);
        assert.equal(self.inputs.model.namespace, "ovn-kubernetes");
        assert.ok(!JSON.stringify(self.inputs).includes("s3cr3t-token"));
    });

    it("creates an explicit provider whose kubeconfig reaches the engine as a secret", () => {
        const provider = byName("k-provider");
        assert.equal(provider.type, "pulumi:providers:kubernetes");
        assert.ok(pulumi.runtime.isRpcSecret(provider.inputs.kubeconfig), "wrapped as secret");
        assert.equal(provider.inputs.kubeconfig.value, KUBECONFIG);
    });

    it("creates every object with a name derived from its own, under it, with that provider", async () => {
        assert.ok(component.provider);
        const providerRef = `${await value(component.provider.urn)}::${await value(component.provider.id)}`;
        for (const [suffix, type] of Object.entries(CHILD_TYPES)) {
            const child = byName(`k-${suffix}`);
            assert.equal(child.type, type, suffix);
            assert.equal(child.provider, providerRef, `${suffix} uses the explicit provider`);
        }
    });

    it("parents every child, the provider included, to the component", () => {
        const urns = [...registeredUrns()];
        for (const suffix of ["provider", ...Object.keys(CHILD_TYPES)]) {
            const urn = urns.find((u) => u.endsWith(`::k-${suffix}`));
            assert.ok(urn, suffix);
            // A child's URN type is qualified by its parent's: `<parent type>$<own type>`.
            assert.ok(urn.split("::")[2].startsWith(`${COMPONENT}$`), urn);
        }
    });

    it("gives the objects exactly ovn-kubernetes' names", () => {
        assert.equal(byName("k-namespace").inputs.metadata.name, "ovn-kubernetes");
        assert.equal(byName("k-host-network-namespace").inputs.metadata.name, "ovn-host-network");
        assert.equal(byName("k-service-account").inputs.metadata.name, "ovn");
        assert.equal(byName("k-config").inputs.metadata.name, "ovn-config");
        assert.equal(byName("k-config").inputs.data.OvnNorth, "tcp:10.19.188.22:6641");
        assert.equal(byName("k-cluster-role").inputs.metadata.name, "ovn-kubernetes");
        assert.equal(byName("k-master").inputs.metadata.name, "ovnkube-master");
        assert.equal(byName("k-node-default").inputs.metadata.name, "ovnkube-node-default");
        assert.equal(byName("k-node-breth0-10-19-188-1").inputs.metadata.name, "ovnkube-node-breth0-10-19-188-1");
        assert.equal(byName("k-node-default").inputs.spec.template.spec.hostNetwork, true);
    });

    it("patches each planned Node with its annotations, server-side and forced under one field manager", () => {
        const plan = byName("k-worker-0-plan").inputs;
        assert.equal(plan.metadata.name, "worker-0");
        assert.deepEqual(plan.metadata.annotations, {
            "k8s.ovn.org/node-subnets": '{"default":["10.128.2.0/23"]}',
            "k8s.ovn.org/node-id": "3",
            "pulumi.com/patchFieldManager": "ovn-kubernetes-node-plan",
            "pulumi.com/patchForce": "true",
        });
        assert.equal(plan.spec, undefined, "only annotations are patched");
    });

    it("creates the Nodes' plan, the ConfigMap, account and permissions before every DaemonSet", () => {
        const deps = (name: string) => (dependsOn.get(name) ?? []).map((r) => names.get(r));
        for (const ds of DAEMON_SETS.map((d) => `k-${d}`)) {
            for (const needed of ["k-config", "k-service-account", "k-cluster-role-binding", ...PLANS.map((p) => `k-${p}`)]) {
                assert.ok(deps(ds).includes(needed), `${ds} after ${needed}`);
            }
        }
        for (const plan of PLANS) assert.deepEqual(deps(`k-${plan}`), [], `${plan} waits for nothing`);
        assert.ok(deps("k-master").includes("k-role-binding"));
        assert.ok(deps("k-master").includes("k-host-network-namespace"));
        assert.ok(deps("k-config").includes("k-namespace"));
        assert.ok(deps("k-cluster-role-binding").includes("k-cluster-role"));
    });

    it("exposes the namespace, the DaemonSet names and the plan per node", async () => {
        assert.equal(await value(component.namespace), "ovn-kubernetes");
        assert.equal(await value(component.masterDaemonSet), "ovnkube-master");
        assert.deepEqual(await value(component.nodeDaemonSets), ["ovnkube-node-default", "ovnkube-node-breth0-10-19-188-1"]);
        const plan = await value(component.nodePlan);
        assert.deepEqual(Object.keys(plan), ["master-0", "master-1", "worker-0", "worker-1"]);
        assert.deepEqual(plan["master-1"], { "k8s.ovn.org/node-subnets": '{"default":["10.128.6.0/23"]}', "k8s.ovn.org/node-id": "5" });
    });
});

describe("Ovnkube with a kubeconfig that is already a secret", () => {
    it("keeps it secret", async () => {
        const c = new Ovnkube("s", { model: kubeModel(), kubeconfig: pulumi.secret(KUBECONFIG) });
        await settle(c);
        assert.ok(pulumi.runtime.isRpcSecret(byName("s-provider").inputs.kubeconfig));
    });
});

describe("Ovnkube without a kubeconfig", () => {
    it("creates no provider and leaves the children on the ambient one", async () => {
        const c = new Ovnkube("a", { model: kubeModel() });
        await settle(c);
        assert.equal(c.provider, undefined);
        assert.ok(!registered.some((r) => r.name === "a-provider"));
        for (const suffix of Object.keys(CHILD_TYPES)) {
            assert.ok(!byName(`a-${suffix}`).provider, `${suffix} has no explicit provider`);
        }
    });

    it("passes a provider given to the component on to every child", async () => {
        const outer = new k8s.Provider("outer", { kubeconfig: pulumi.secret(KUBECONFIG) });
        const c = new Ovnkube("o", { model: kubeModel() }, { providers: { kubernetes: outer } });
        await settle(c);
        const ref = `${await value(outer.urn)}::${await value(outer.id)}`;
        for (const suffix of Object.keys(CHILD_TYPES)) assert.equal(byName(`o-${suffix}`).provider, ref, suffix);
    });
});

describe("Ovnkube with an invalid model", () => {
    it("throws before registering anything", () => {
        const before = registered.length;
        const bad: KubeModel = kubeModel({ namespace: "Bad_Namespace" });
        assert.throws(() => new Ovnkube("bad", { model: bad }), { message: /^kube\.namespace: / });
        assert.equal(registered.length, before);
    });
});
