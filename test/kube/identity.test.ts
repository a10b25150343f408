// Node identities (ovnkube-identity), as the manifests carry them: ovnkube-identity's DaemonSet on
// the masters with upstream's command line, the webhooks the API server calls (the node webhook
// always, the pod webhook with interconnect), the Secret its certificate is served from, and what
// changes for ovnkube-node: its own certificate, requested with the kubelet's kubeconfig. Without
// node identities none of it exists. The certificate itself: test/unit/webhookCertificate.test.ts;
// the identity's RBAC: rbac.test.ts; against a real API server: apiserver.test.ts.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { NODE_WEBHOOK, POD_WEBHOOK, webhookConfigurations, webhookSecret, webhookUrl } from "../../components/kube/identity";
import { kubeManifests, manifestList } from "../../components/kube/manifests";
import type { DaemonSet, SecretVolume } from "../../components/kube/objectTypes";
import type { KubeModel } from "../../components/model/types";
import { IDENTITY, interconnectModel, kubeModel } from "./fixture";
import { affinityNodes, expandedCommand, flag, hasFlag, main } from "./inspect";
import { validateObject } from "./schema";

/** `--name=value` arguments (ovnkube-identity's Go flags), by name. */
function longFlags(ds: DaemonSet): Map<string, string | true> {
    return new Map(
        (main(ds).args ?? []).map((a) => {
            const [name, ...value] = a.split("=");
            return [name, value.length ? value.join("=") : true];
        }),
    );
}

const identityOf = (model: KubeModel) => {
    const identity = kubeManifests(model).identity;
    assert.ok(identity, "node identities are on");
    return identity;
};

/** The fixture cluster with node identities in each architecture. */
const withIdentity: Array<[KubeModel["architecture"], KubeModel]> = [
    ["interconnect", interconnectModel()],
    ["centralized", kubeModel({ identity: { ...IDENTITY } })],
];
/** ovnkube-identity listening on master-0's address, where the API server calls it. */
const onNode = (model: KubeModel): KubeModel => ({ ...model, identity: { ...IDENTITY, webhookAddress: "10.19.188.22", listen: "node" } });

for (const [architecture, model] of withIdentity) {
    describe(`ovnkube-identity (${architecture})`, () => {
        const ds = identityOf(model).daemonSet;
        const pod = ds.spec.template.spec;
        const c = main(ds);
        const args = longFlags(ds);
        const controlPlaneAccount = architecture === "interconnect" ? "ovnkube-cluster-manager" : "ovnkube-master";

        it("runs on the masters only, as its own unprivileged account, in the model's namespace", () => {
            assert.equal(ds.metadata.name, "ovnkube-identity");
            assert.equal(ds.metadata.namespace, "ovn-kubernetes");
            assert.deepEqual(affinityNodes(ds), ["master-0", "master-1"]);
            assert.deepEqual(pod.nodeSelector, { "node-role.kubernetes.io/control-plane": "", "kubernetes.io/os": "linux" });
            assert.equal(pod.serviceAccountName, "ovnkube-identity");
            assert.equal(pod.hostPID, false);
            assert.equal(pod.priorityClassName, "system-cluster-critical");
            assert.deepEqual(c.command, ["/usr/bin/ovnkube-identity"]);
            assert.equal(c.image, model.image);
            assert.deepEqual(c.securityContext, { privileged: false, allowPrivilegeEscalation: false });
        });

        it("serves the webhook on localhost:9443 with the certificate of the Secret, read-only", () => {
            assert.equal(args.get("--webhook-host"), "localhost");
            assert.equal(args.get("--webhook-port"), "9443");
            assert.equal(args.get("--webhook-cert-dir"), "/etc/webhook-cert");
            assert.deepEqual(c.volumeMounts, [{ name: "webhook-cert", mountPath: "/etc/webhook-cert", readOnly: true }]);
            const volume = pod.volumes?.find((v): v is SecretVolume => v.name === "webhook-cert" && "secret" in v);
            assert.deepEqual(volume?.secret, { secretName: webhookSecret(model).metadata.name, defaultMode: 0o400 });
            assert.equal(webhookSecret(model).metadata.name, "ovnkube-webhook-cert");
        });

        it(`lets the control plane's account (${controlPlaneAccount}) still write the node annotations it owns, and elects its approver in the namespace`, () => {
            assert.equal(args.get("--extra-allowed-user"), `system:serviceaccount:ovn-kubernetes:${controlPlaneAccount}`);
            assert.equal(args.get("--lease-namespace"), "ovn-kubernetes");
            assert.equal(args.get("--k8s-apiserver"), "$(K8S_APISERVER)");
        });

        it(architecture === "interconnect" ? "serves the pod webhook too (--enable-interconnect)" : "serves the node webhook only", () => {
            assert.equal(args.has("--enable-interconnect"), architecture === "interconnect");
        });

        it("listens on its node's own address (the Node's InternalIP) when the API server calls a master's address", () => {
            const nodeDs = identityOf(onNode(model)).daemonSet;
            assert.equal(longFlags(nodeDs).get("--webhook-host"), "$(K8S_NODE_IP)");
            assert.deepEqual(main(nodeDs).env?.find((e) => e.name === "K8S_NODE_IP")?.valueFrom, {
                fieldRef: { fieldPath: "status.hostIP" },
            });
            const argv = expandedCommand(main(nodeDs), model.config, { node: "master-0", hostIP: "10.19.188.22" });
            assert.ok(argv.includes("--webhook-host=10.19.188.22"), argv.join(" "));
            assert.ok(argv.includes(`--k8s-apiserver=${model.config.k8s_apiserver}`), argv.join(" "));
        });

        it("validates against the Kubernetes schema, with its Secret and webhooks", () => {
            for (const obj of [
                ...Object.values(identityOf(model)),
                { ...webhookSecret(model), stringData: { "tls.crt": "c", "tls.key": "k" } },
                ...webhookConfigurations(model),
            ]) {
                assert.doesNotThrow(() => validateObject(obj), `${obj.kind}/${obj.metadata.name}`);
            }
        });

        it("comes before the DaemonSets whose nodes it approves and holds to their own objects", () => {
            const list = manifestList(kubeManifests(model));
            const at = (kind: string, name: string) => list.findIndex((o) => o.kind === kind && o.metadata.name === name);
            const first = list.findIndex((o) => o.kind === "DaemonSet" && o.metadata.name !== "ovnkube-identity");
            for (const [kind, name] of [
                ["ServiceAccount", "ovnkube-identity"],
                ["ClusterRoleBinding", "ovn-kubernetes-identity"],
                ["RoleBinding", "ovn-kubernetes-identity"],
                ["DaemonSet", "ovnkube-identity"],
            ]) {
                const i = at(kind, name);
                assert.ok(i >= 0 && i < first, `${kind}/${name}`);
            }
        });
    });

    describe(`the admission webhooks (${architecture})`, () => {
        const webhooks = webhookConfigurations(model);
        const ic = architecture === "interconnect";

        it(ic ? "guard node and pod status updates" : "guard node status updates only (no pod webhook without interconnect)", () => {
            assert.deepEqual(
                webhooks.map((w) => w.metadata.name),
                ic ? [NODE_WEBHOOK, POD_WEBHOOK] : [NODE_WEBHOOK],
            );
            assert.deepEqual(
                webhooks.map((w) => w.webhooks.map((h) => h.rules.flatMap((r) => r.resources))),
                ic ? [[["nodes/status"]], [["pods/status"]]] : [[["nodes/status"]]],
            );
            for (const w of webhooks) {
                assert.equal(w.webhooks.length, 1);
                const [h] = w.webhooks;
                assert.equal(h.name, `${w.metadata.name}.k8s.io`);
                assert.deepEqual(
                    h.rules.map((r) => r.operations),
                    [["UPDATE"]],
                );
            }
        });

        it("stop what they cannot check (failurePolicy Fail), call no one with side effects, speak admission v1", () => {
            for (const h of webhooks.flatMap((w) => w.webhooks)) {
                assert.equal(h.failurePolicy, "Fail", h.name);
                assert.equal(h.sideEffects, "None");
                assert.deepEqual(h.admissionReviewVersions, ["v1"]);
                assert.equal(h.clientConfig.caBundle, undefined, "the component adds the certificate's CA");
            }
        });

        it("call https://<webhookAddress>:9443/<kind>", () => {
            const urls = (m: KubeModel) => webhookConfigurations(m).map((w) => w.webhooks[0].clientConfig.url);
            assert.deepEqual(
                urls(model),
                ic ? ["https://localhost:9443/node", "https://localhost:9443/pod"] : ["https://localhost:9443/node"],
            );
            assert.deepEqual(
                urls(onNode(model)),
                ic ? ["https://10.19.188.22:9443/node", "https://10.19.188.22:9443/pod"] : ["https://10.19.188.22:9443/node"],
            );
            assert.equal(webhookUrl(onNode(model), "pod"), "https://10.19.188.22:9443/pod");
        });
    });
}

describe("the pod webhook (interconnect)", () => {
    it("skips ovnkube-identity's own pods, by the namespace and its name label, so that it can start while its webhook is down", () => {
        const pod = webhookConfigurations(interconnectModel({ namespace: "openshift-ovn-kubernetes" })).find(
            (w) => w.metadata.name === POD_WEBHOOK,
        )!;
        const [condition] = pod.webhooks[0].matchConditions ?? [];
        assert.equal(condition?.name, "skip-ovnkube-identity-self-pods");
        assert.equal(
            condition.expression,
            '!(request.namespace == "openshift-ovn-kubernetes" && has(object.metadata.labels) && "name" in object.metadata.labels && object.metadata.labels["name"] == "ovnkube-identity")',
        );
        // The label it matches is the one the DaemonSet gives its pods.
        assert.equal(identityOf(interconnectModel()).daemonSet.spec.template.metadata.labels.name, "ovnkube-identity");
        const node = webhookConfigurations(interconnectModel()).find((w) => w.metadata.name === NODE_WEBHOOK)!;
        assert.equal(node.webhooks[0].matchConditions, undefined);
    });
});

describe("ovnkube-node with node identities", () => {
    const groups = kubeManifests(interconnectModel()).nodes;

    it("requests its own certificate with the kubelet's kubeconfig, kept beside its socket", () => {
        for (const ds of groups) {
            assert.equal(flag(main(ds), "-bootstrap-kubeconfig"), "/etc/kubernetes/kubelet.conf", ds.metadata.name);
            assert.equal(flag(main(ds), "-cert-dir"), "/var/run/ovn-kubernetes/certs");
        }
        const other = kubeManifests(
            interconnectModel({ identity: { ...IDENTITY, bootstrapKubeconfig: "/var/lib/kubelet/kubeconfig" } }),
        ).nodes;
        assert.equal(flag(main(other[0]), "-bootstrap-kubeconfig"), "/var/lib/kubelet/kubeconfig");
    });

    it("mounts the kubeconfig's directory and the kubelet's client certificates read-only, at the host's paths", () => {
        for (const ds of groups) {
            const pod = ds.spec.template.spec;
            for (const [name, path] of [
                ["host-kubeconfig", "/etc/kubernetes"],
                ["host-kubelet-pki", "/var/lib/kubelet/pki"],
            ]) {
                assert.deepEqual(
                    pod.volumes?.find((v) => v.name === name),
                    { name, hostPath: { path, type: "Directory" } },
                    `${ds.metadata.name}: ${name}`,
                );
                assert.deepEqual(
                    main(ds).volumeMounts?.find((m) => m.name === name),
                    { name, mountPath: path, readOnly: true },
                );
            }
            // The shim installer needs neither.
            for (const init of pod.initContainers ?? [])
                assert.ok(!(init.volumeMounts ?? []).some((m) => m.name.startsWith("host-kube")), init.name);
        }
        const other = kubeManifests(interconnectModel({ identity: { ...IDENTITY, bootstrapKubeconfig: "/srv/kube/node.conf" } })).nodes[0];
        assert.deepEqual(
            main(other).volumeMounts?.find((m) => m.name === "host-kubeconfig"),
            { name: "host-kubeconfig", mountPath: "/srv/kube", readOnly: true },
        );
    });

    it("a kubeconfig in the kubelet's own directory brings the certificates with its mount: no second mount of its pki", () => {
        const ds = kubeManifests(interconnectModel({ identity: { ...IDENTITY, bootstrapKubeconfig: "/var/lib/kubelet/kubeconfig" } }))
            .nodes[0];
        const kube = (main(ds).volumeMounts ?? []).filter((m) => m.name.startsWith("host-kube"));
        assert.deepEqual(kube, [{ name: "host-kubeconfig", mountPath: "/var/lib/kubelet", readOnly: true }]);
    });

    it("without node identities: no bootstrap kubeconfig, no certificate directory, no kubelet files, no ovnkube-identity", () => {
        for (const model of [kubeModel(), interconnectModel({ identity: undefined })]) {
            const m = kubeManifests(model);
            assert.equal(m.identity, undefined);
            assert.ok(!manifestList(m).some((o) => o.metadata.name === "ovnkube-identity"));
            for (const ds of m.nodes) {
                assert.ok(!hasFlag(main(ds), "-bootstrap-kubeconfig"));
                assert.ok(!hasFlag(main(ds), "-cert-dir"));
                const paths = (ds.spec.template.spec.volumes ?? []).map((v) => ("hostPath" in v ? v.hostPath.path : v.name));
                assert.ok(!paths.includes("/etc/kubernetes") && !paths.includes("/var/lib/kubelet/pki"), paths.join(", "));
            }
        }
    });
});
