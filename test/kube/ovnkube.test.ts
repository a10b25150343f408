// The Ovnkube component under Pulumi's mocks: what it registers, under which parent and provider,
// in which order, and that the kubeconfig never leaves secrecy. The release's CRDs are read from
// the fixture's URLs (the lab's copy) while the program runs, one resource each. With node
// identities (the interconnect fixture) also ovnkube-identity, its webhook certificate (made by its
// provider's own create, as the mocks' engine), the certificate's Secret and the webhooks.
import assert from "node:assert/strict";
import { createPrivateKey, X509Certificate } from "node:crypto";
import { before, describe, it } from "node:test";
import * as k8s from "@pulumi/kubernetes";
import * as pulumi from "@pulumi/pulumi";
import type { KubeModel } from "../../components/model/types";
import { createdState, WEBHOOK_CERTIFICATE } from "../../lab/harness/pulumiMocks";
import { IDENTITY, interconnectModel, kubeModel } from "./fixture";
import { flag } from "./inspect";

const KUBECONFIG = "apiVersion: v1\nkind: Config\nusers:\n- name: admin\n  user:\n    token: s3cr3t-token\n";
const COMPONENT = "ovn-kubernetes:kubernetes:Ovnkube";
const PLANS = ["master-0-plan", "master-1-plan", "worker-0-plan", "worker-1-plan"];
const NODE_DAEMON_SETS = ["node-default", "node-breth0-10-19-188-1"];
/** The CRDs of ovn-kubernetes 1.3, by their resource names' suffix. */
const CRDS = [
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
].map((c) => `crd-${c}.k8s.ovn.org`);
/** Every child but the provider, by name suffix, with its type; the control plane's DaemonSet is `control-plane` (interconnect) or `master`. */
function childTypes(controlPlane: "control-plane" | "master"): Record<string, string> {
    return {
        namespace: "kubernetes:core/v1:Namespace",
        "host-network-namespace": "kubernetes:core/v1:Namespace",
        config: "kubernetes:core/v1:ConfigMap",
        ...Object.fromEntries(
            ["control-plane", "node"].flatMap((role) => [
                [`${role}-service-account`, "kubernetes:core/v1:ServiceAccount"],
                [`${role}-cluster-role`, "kubernetes:rbac.authorization.k8s.io/v1:ClusterRole"],
                [`${role}-cluster-role-binding`, "kubernetes:rbac.authorization.k8s.io/v1:ClusterRoleBinding"],
            ]),
        ),
        role: "kubernetes:rbac.authorization.k8s.io/v1:Role",
        "role-binding": "kubernetes:rbac.authorization.k8s.io/v1:RoleBinding",
        ...Object.fromEntries(PLANS.map((p) => [p, "kubernetes:core/v1:NodePatch"])),
        ...Object.fromEntries(CRDS.map((c) => [c, "kubernetes:apiextensions.k8s.io/v1:CustomResourceDefinition"])),
        [controlPlane]: "kubernetes:apps/v1:DaemonSet",
        ...Object.fromEntries(NODE_DAEMON_SETS.map((d) => [d, "kubernetes:apps/v1:DaemonSet"])),
    };
}
const CENTRALIZED = childTypes("master");
/** With node identities, beside those: ovnkube-identity, its certificate, their Secret and the webhooks (the pod webhook with interconnect). */
function identityTypes(interconnect: boolean): Record<string, string> {
    return {
        "webhook-certificate": WEBHOOK_CERTIFICATE,
        "identity-service-account": "kubernetes:core/v1:ServiceAccount",
        "identity-cluster-role": "kubernetes:rbac.authorization.k8s.io/v1:ClusterRole",
        "identity-cluster-role-binding": "kubernetes:rbac.authorization.k8s.io/v1:ClusterRoleBinding",
        "identity-role": "kubernetes:rbac.authorization.k8s.io/v1:Role",
        "identity-role-binding": "kubernetes:rbac.authorization.k8s.io/v1:RoleBinding",
        "webhook-secret": "kubernetes:core/v1:Secret",
        identity: "kubernetes:apps/v1:DaemonSet",
        "ovn-kubernetes-admission-webhook-node": "kubernetes:admissionregistration.k8s.io/v1:ValidatingWebhookConfiguration",
        ...(interconnect
            ? { "ovn-kubernetes-admission-webhook-pod": "kubernetes:admissionregistration.k8s.io/v1:ValidatingWebhookConfiguration" }
            : {}),
    };
}

interface Registered {
    type: string;
    name: string;
    inputs: Record<string, any>;
    provider?: string;
}
const registered: Registered[] = [];
/** dependsOn of every resource, by name, as the SDK saw it (recorded by a transformation): a list, or an Output of one. */
const dependsOn = new Map<string, pulumi.Input<pulumi.Input<pulumi.Resource>[]> | pulumi.Input<pulumi.Resource>>();
/** additionalSecretOutputs of every resource, by name. */
const secretOutputs = new Map<string, string[] | undefined>();
const names = new Map<pulumi.Resource, string>();

type OvnkubeModule = typeof import("../../components/kube/ovnkubeComponent");
let Ovnkube: OvnkubeModule["Ovnkube"];

const value = <T>(o: pulumi.Output<T>): Promise<T> => new Promise((resolve) => o.apply(resolve));
const byName = (name: string): Registered => {
    const r = registered.find((x) => x.name === name);
    assert.ok(r, `${name} registered`);
    return r;
};

/** The names of the resources `name` was made to wait for. */
async function deps(name: string): Promise<string[]> {
    const raw = dependsOn.get(name) ?? [];
    const list = pulumi.Output.isInstance(raw) ? await value(raw as pulumi.Output<pulumi.Resource[]>) : raw;
    return (Array.isArray(list) ? list : [list]).map((r) => names.get(r as pulumi.Resource)!);
}

/** URNs the mock monitor handed out; the mock records no parent, but a URN encodes it. */
function registeredUrns(): Iterable<string> {
    const monitor = pulumi.runtime.getMonitor() as unknown as { getRegisteredResources(): Map<string, unknown> };
    return monitor.getRegisteredResources().keys();
}

/** Lets the SDK finish registering everything created so far, the CRDs read while the program runs included. */
async function settle(c: InstanceType<OvnkubeModule["Ovnkube"]>): Promise<void> {
    await value(c.namespace);
    await value(c.nodeDaemonSets);
    await value(c.controlPlaneDaemonSet);
    await value(c.crds);
    await new Promise((r) => setTimeout(r, 50));
    // What waits for another resource's outputs (the webhooks for the certificate's CA) registers last.
    await (pulumi.runtime as unknown as { waitForRPCs(): Promise<void> }).waitForRPCs();
}

const record: pulumi.ResourceTransformation = (args) => {
    names.set(args.resource, args.name);
    dependsOn.set(args.name, args.opts.dependsOn ?? []);
    secretOutputs.set(args.name, (args.opts as pulumi.CustomResourceOptions).additionalSecretOutputs);
    return undefined;
};

before(async () => {
    await pulumi.runtime.setMocks(
        {
            newResource: async (args) => {
                registered.push({ type: args.type, name: args.name, inputs: args.inputs, provider: args.provider });
                return { id: `${args.name}-id`, state: await createdState(args) };
            },
            call: (args) => args.inputs,
        },
        "ovn-kubernetes",
        "test",
        false,
    );
    ({ Ovnkube } = await import("../../components/kube/ovnkubeComponent"));
});

describe("Ovnkube with a kubeconfig (centralized)", () => {
    let component: InstanceType<OvnkubeModule["Ovnkube"]>;

    before(async () => {
        component = new Ovnkube("k", { model: kubeModel(), kubeconfig: KUBECONFIG }, { transformations: [record] });
        await settle(component);
    });

    it("registers itself with its type token and no inputs: neither the model nor the kubeconfig", () => {
        const self = byName("k");
        assert.equal(self.type, COMPONENT);
        assert.deepEqual(self.inputs, {});
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
        for (const [suffix, type] of Object.entries(CENTRALIZED)) {
            const child = byName(`k-${suffix}`);
            assert.equal(child.type, type, suffix);
            assert.equal(child.provider, providerRef, `${suffix} uses the explicit provider`);
        }
        // Nothing else: the children are exactly these, the provider and the component itself.
        const mine = registered.filter((r) => r.name === "k" || r.name.startsWith("k-"));
        assert.equal(mine.length, Object.keys(CENTRALIZED).length + 2);
    });

    it("parents every child, the provider included, to the component", () => {
        const urns = [...registeredUrns()];
        for (const suffix of ["provider", ...Object.keys(CENTRALIZED)]) {
            const urn = urns.find((u) => u.endsWith(`::k-${suffix}`));
            assert.ok(urn, suffix);
            // A child's URN type is qualified by its parent's: `<parent type>$<own type>`.
            assert.ok(urn.split("::")[2].startsWith(`${COMPONENT}$`), urn);
        }
    });

    it("gives the objects exactly ovn-kubernetes' names", () => {
        assert.equal(byName("k-namespace").inputs.metadata.name, "ovn-kubernetes");
        assert.equal(byName("k-host-network-namespace").inputs.metadata.name, "ovn-host-network");
        assert.equal(byName("k-control-plane-service-account").inputs.metadata.name, "ovnkube-master");
        assert.equal(byName("k-node-service-account").inputs.metadata.name, "ovnkube-node");
        assert.equal(byName("k-config").inputs.metadata.name, "ovn-config");
        assert.equal(byName("k-config").inputs.data.OvnNorth, "tcp:10.19.188.22:6641");
        assert.equal(byName("k-control-plane-cluster-role").inputs.metadata.name, "ovn-kubernetes-control-plane");
        assert.equal(byName("k-node-cluster-role").inputs.metadata.name, "ovn-kubernetes-node");
        assert.equal(byName("k-role").inputs.metadata.name, "ovn-kubernetes");
        assert.equal(byName("k-master").inputs.metadata.name, "ovnkube-master");
        assert.equal(byName("k-node-default").inputs.metadata.name, "ovnkube-node-default");
        assert.equal(byName("k-node-breth0-10-19-188-1").inputs.metadata.name, "ovnkube-node-breth0-10-19-188-1");
        assert.equal(byName("k-node-default").inputs.spec.template.spec.hostNetwork, true);
        assert.equal(byName("k-crd-egressips.k8s.ovn.org").inputs.spec.group, "k8s.ovn.org");
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
        assert.deepEqual(
            plan.metadata.labels,
            { "ovn-kubernetes-as-code/ovnkube-node-group": "ovnkube-node-breth0-10-19-188-1" },
            "centralized: no zone label",
        );
        assert.equal(plan.spec, undefined, "only annotations are patched");
    });

    it("creates the Nodes' plan, the CRDs, the ConfigMap, accounts and permissions before every DaemonSet", async () => {
        const crds = CRDS.map((c) => `k-${c}`);
        const plans = PLANS.map((p) => `k-${p}`);
        // The nodes' DaemonSets come after every plan through the control plane's: not listing the plans again.
        const nodeDeps = [
            "k-config",
            "k-host-network-namespace",
            "k-node-service-account",
            "k-node-cluster-role-binding",
            "k-master",
            ...crds,
        ];
        for (const ds of NODE_DAEMON_SETS.map((d) => `k-${d}`)) {
            const d = await deps(ds);
            for (const needed of nodeDeps) assert.ok(d.includes(needed), `${ds} after ${needed}`);
            for (const plan of plans) assert.ok(!d.includes(plan), `${ds} lists ${plan}`);
        }
        const master = await deps("k-master");
        for (const needed of [
            "k-config",
            "k-host-network-namespace",
            "k-control-plane-service-account",
            "k-control-plane-cluster-role-binding",
            "k-role-binding",
            ...plans,
            ...crds,
        ]) {
            assert.ok(master.includes(needed), `k-master after ${needed}`);
        }
        for (const plan of plans) assert.deepEqual(await deps(plan), [], `${plan} waits for nothing`);
        for (const crd of crds) assert.deepEqual(await deps(crd), [], `${crd} waits for nothing`);
        assert.ok((await deps("k-config")).includes("k-namespace"));
        for (const role of ["control-plane", "node"]) {
            assert.ok((await deps(`k-${role}-cluster-role-binding`)).includes(`k-${role}-cluster-role`));
            assert.ok((await deps(`k-${role}-cluster-role-binding`)).includes(`k-${role}-service-account`));
        }
        assert.ok((await deps("k-role-binding")).includes("k-role"));
    });

    it("exposes the namespace, the DaemonSet names, the CRDs and the plan per node", async () => {
        assert.equal(await value(component.namespace), "ovn-kubernetes");
        assert.equal(await value(component.controlPlaneDaemonSet), "ovnkube-master");
        assert.deepEqual(await value(component.nodeDaemonSets), ["ovnkube-node-default", "ovnkube-node-breth0-10-19-188-1"]);
        assert.deepEqual(
            [...(await value(component.crds))].sort(),
            CRDS.map((c) => c.slice("crd-".length)),
        );
        const plan = await value(component.nodePlan);
        assert.deepEqual(Object.keys(plan), ["master-0", "master-1", "worker-0", "worker-1"]);
        assert.deepEqual(plan["master-1"], { "k8s.ovn.org/node-subnets": '{"default":["10.128.6.0/23"]}', "k8s.ovn.org/node-id": "5" });
    });
});

describe("Ovnkube with interconnect", () => {
    let component: InstanceType<OvnkubeModule["Ovnkube"]>;

    before(async () => {
        component = new Ovnkube("i", { model: interconnectModel() }, { transformations: [record] });
        await settle(component);
    });

    it("creates the same kinds of objects, the control plane as ovnkube-control-plane, and with node identities ovnkube-identity's", () => {
        const types = { ...childTypes("control-plane"), ...identityTypes(true) };
        for (const [suffix, type] of Object.entries(types)) assert.equal(byName(`i-${suffix}`).type, type, suffix);
        assert.ok(!registered.some((r) => r.name === "i-master"));
        assert.equal(registered.filter((r) => r.name === "i" || r.name.startsWith("i-")).length, Object.keys(types).length + 1);
    });

    it("binds the nodes' role to their certificates' group", () => {
        assert.deepEqual(byName("i-node-cluster-role-binding").inputs.subjects, [
            { kind: "Group", name: "system:ovn-nodes", apiGroup: "rbac.authorization.k8s.io" },
        ]);
        assert.equal(
            flag(byName("i-node-default").inputs.spec.template.spec.containers[0], "-bootstrap-kubeconfig"),
            "/etc/kubernetes/kubelet.conf",
        );
    });

    it("makes the webhook certificate for the webhook's address, its private key an output kept secret", () => {
        const certificate = byName("i-webhook-certificate");
        assert.deepEqual(certificate.inputs.hosts, ["localhost"]);
        assert.deepEqual(secretOutputs.get("i-webhook-certificate"), ["privateKey"]);
        const urn = [...registeredUrns()].find((u) => u.endsWith("::i-webhook-certificate"))!;
        assert.ok(urn.split("::")[2].startsWith(`${COMPONENT}$`), urn);
    });

    it("serves it from a kubernetes.io/tls Secret whose data is a secret: the certificate and its own key", async () => {
        const secret = byName("i-webhook-secret").inputs;
        assert.equal(secret.type, "kubernetes.io/tls");
        assert.equal(secret.metadata.name, "ovnkube-webhook-cert");
        assert.equal(secret.metadata.namespace, "ovn-kubernetes");
        assert.ok(pulumi.runtime.isRpcSecret(secret.stringData), "stringData is secret");
        const pair = secret.stringData.value as Record<string, string>;
        assert.deepEqual(Object.keys(pair).sort(), ["tls.crt", "tls.key"]);
        const cert = new X509Certificate(pair["tls.crt"]);
        assert.ok(cert.checkPrivateKey(createPrivateKey(pair["tls.key"])));
        assert.equal(cert.checkHost("localhost"), "localhost");
        assert.equal(byName("i-identity").inputs.spec.template.spec.volumes[0].secret.secretName, "ovnkube-webhook-cert");
    });

    it("gives both webhooks the CA that signed the served certificate as caBundle", () => {
        const served = new X509Certificate(byName("i-webhook-secret").inputs.stringData.value["tls.crt"]);
        for (const [name, path] of [
            ["i-ovn-kubernetes-admission-webhook-node", "node"],
            ["i-ovn-kubernetes-admission-webhook-pod", "pod"],
        ]) {
            const [hook] = byName(name).inputs.webhooks;
            assert.equal(hook.clientConfig.url, `https://localhost:9443/${path}`);
            assert.equal(hook.failurePolicy, "Fail");
            const ca = new X509Certificate(Buffer.from(hook.clientConfig.caBundle, "base64").toString());
            assert.ok(ca.ca && served.checkIssued(ca) && served.verify(ca.publicKey), name);
        }
    });

    it("starts ovnkube-identity once its account may act and its certificate is there, the webhooks once it runs, ovnkube-node after both", async () => {
        const identity = await deps("i-identity");
        for (const needed of ["i-namespace", "i-config", "i-identity-cluster-role-binding", "i-identity-role-binding", "i-webhook-secret"])
            assert.ok(identity.includes(needed), `i-identity after ${needed}`);
        for (const [binding, role] of [
            ["i-identity-cluster-role-binding", "i-identity-cluster-role"],
            ["i-identity-role-binding", "i-identity-role"],
        ]) {
            assert.ok((await deps(binding)).includes(role), `${binding} after ${role}`);
            assert.ok((await deps(binding)).includes("i-identity-service-account"), binding);
        }
        const webhooks = ["i-ovn-kubernetes-admission-webhook-node", "i-ovn-kubernetes-admission-webhook-pod"];
        for (const w of webhooks) assert.deepEqual(await deps(w), ["i-identity"], w);
        for (const ds of NODE_DAEMON_SETS.map((d) => `i-${d}`)) {
            const d = await deps(ds);
            for (const needed of ["i-identity", ...webhooks, "i-node-cluster-role-binding"])
                assert.ok(d.includes(needed), `${ds} after ${needed}`);
        }
    });

    it("runs the cluster manager as its own account, the zones' controllers as ovnkube-node, and names no database", async () => {
        assert.equal(await value(component.controlPlaneDaemonSet), "ovnkube-control-plane");
        assert.equal(byName("i-control-plane-service-account").inputs.metadata.name, "ovnkube-cluster-manager");
        assert.equal(byName("i-control-plane").inputs.spec.template.spec.serviceAccountName, "ovnkube-cluster-manager");
        assert.equal(byName("i-node-default").inputs.spec.template.spec.containers[0].name, "ovnkube-controller");
        assert.deepEqual(byName("i-role-binding").inputs.subjects, [
            { kind: "ServiceAccount", name: "ovnkube-cluster-manager", namespace: "ovn-kubernetes" },
        ]);
        const data = byName("i-config").inputs.data;
        assert.ok(!("OvnNorth" in data) && !("OvnSouth" in data));
    });

    it("labels each Node with its zone and its ovnkube-node DaemonSet beside the plan", () => {
        for (const p of PLANS) {
            const node = p.replace(/-plan$/, "");
            const group = node === "worker-0" ? "ovnkube-node-breth0-10-19-188-1" : "ovnkube-node-default";
            assert.deepEqual(byName(`i-${p}`).inputs.metadata.labels, {
                "ovn-kubernetes-as-code/ovnkube-node-group": group,
                "k8s.ovn.org/zone-name": node,
            });
        }
    });
});

describe("Ovnkube with node identities, centralized, the webhook on a master's address", () => {
    const MASTER = "10.19.188.22";

    before(async () => {
        const c = new Ovnkube("ci", { model: kubeModel({ identity: { ...IDENTITY, webhookAddress: MASTER, listen: "node" } }) });
        await settle(c);
    });

    it("creates ovnkube-identity and the node webhook only, besides the rest", () => {
        const types = { ...CENTRALIZED, ...identityTypes(false) };
        for (const [suffix, type] of Object.entries(types)) assert.equal(byName(`ci-${suffix}`).type, type, suffix);
        assert.equal(registered.filter((r) => r.name === "ci" || r.name.startsWith("ci-")).length, Object.keys(types).length + 1);
    });

    it("certifies and calls the master's address, where ovnkube-identity listens", () => {
        assert.deepEqual(byName("ci-webhook-certificate").inputs.hosts, [MASTER]);
        assert.equal(byName("ci-ovn-kubernetes-admission-webhook-node").inputs.webhooks[0].clientConfig.url, `https://${MASTER}:9443/node`);
        assert.ok(byName("ci-identity").inputs.spec.template.spec.containers[0].args.includes("--webhook-host=$(K8S_NODE_IP)"));
        assert.equal(new X509Certificate(byName("ci-webhook-secret").inputs.stringData.value["tls.crt"]).checkIP(MASTER), MASTER);
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
        for (const suffix of Object.keys(CENTRALIZED)) {
            assert.ok(!byName(`a-${suffix}`).provider, `${suffix} has no explicit provider`);
        }
    });

    it("passes a provider given to the component on to every child", async () => {
        const outer = new k8s.Provider("outer", { kubeconfig: pulumi.secret(KUBECONFIG) });
        const c = new Ovnkube("o", { model: kubeModel() }, { providers: { kubernetes: outer } });
        await settle(c);
        const ref = `${await value(outer.urn)}::${await value(outer.id)}`;
        for (const suffix of Object.keys(CENTRALIZED)) assert.equal(byName(`o-${suffix}`).provider, ref, suffix);
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
