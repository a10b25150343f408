// The documented ovnkube-mode stacks, through config validation and the cluster model, give
// Kubernetes objects that pass the API schema, and they carry the model's plan: the model's kube
// part and these manifests agree on their contract. prod is centralized (a central's NB/SB over
// SSL), staging interconnect (a zone per node); both with node identities, on by default.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { validateConfig } from "../../components/plan/validate";
import { webhookConfigurations } from "../../components/kube/identity";
import { kubeManifests, manifestList } from "../../components/kube/manifests";
import { buildClusterModel } from "../../components/model/clusterModel";
import { toInt } from "../../components/values";
import { stackConfig } from "../../lab/harness/configs";
import { affinityNodes, flag, main, selectedNodes } from "./inspect";
import { validateObject } from "./schema";

for (const stack of ["prod", "staging"] as const) {
    describe(`stack ${stack} (ovnkube mode)`, () => {
        const cfg = validateConfig(stackConfig(stack));
        const model = buildClusterModel(cfg);
        const m = kubeManifests(model.kube);
        const ic = model.architecture === "interconnect";
        const masters = cfg.nodes.filter((n) => n.roles.includes("master")).map((n) => n.name);

        it(`is ${stack === "prod" ? "centralized" : "interconnect"}, as the stack says`, () => {
            assert.equal(model.kube.architecture, stack === "prod" ? "centralized" : "interconnect");
            assert.equal(model.kube.version, "1.3");
        });

        it("validates against the Kubernetes schema", () => {
            for (const obj of manifestList(m)) assert.doesNotThrow(() => validateObject(obj), `${obj.kind}/${obj.metadata.name}`);
        });

        it(`turns node identities on, as upstream: ovnkube-identity on the masters, the nodes' role their group's, ${ic ? "node and pod webhooks" : "the node webhook"} at localhost`, () => {
            assert.deepEqual(model.kube.identity, {
                webhookAddress: "localhost",
                listen: "localhost",
                bootstrapKubeconfig: "/etc/kubernetes/kubelet.conf",
            });
            assert.deepEqual(affinityNodes(m.identity!.daemonSet), masters);
            assert.deepEqual(m.roles.node.clusterRoleBinding.subjects, [
                { kind: "Group", name: "system:ovn-nodes", apiGroup: "rbac.authorization.k8s.io" },
            ]);
            const webhooks = webhookConfigurations(model.kube);
            assert.deepEqual(
                webhooks.map((w) => w.webhooks[0].clientConfig.url),
                ["node", ...(ic ? ["pod"] : [])].map((k) => `https://localhost:9443/${k}`),
            );
            for (const w of webhooks) assert.doesNotThrow(() => validateObject(w), w.metadata.name);
        });

        it("places the control plane on the stack's master nodes", () => {
            assert.equal(m.controlPlane.metadata.name, ic ? "ovnkube-control-plane" : "ovnkube-master");
            assert.deepEqual(affinityNodes(m.controlPlane), masters);
        });

        it("runs one ovnkube-node per node group: the shared gateways on their bridge apart from the rest", () => {
            const k8sNodes = cfg.nodes.filter((n) => n.roles.includes("master") || n.roles.includes("node")).map((n) => n.name);
            assert.deepEqual(m.nodes.flatMap((ds) => selectedNodes(ds, m.nodePlans)).sort(), [...k8sNodes].sort());
            const shared = cfg.nodes.filter((n) => n.gateway?.mode === "shared");
            assert.ok(shared.length > 0);
            for (const n of shared) {
                const ds = m.nodes.find((d) => selectedNodes(d, m.nodePlans).includes(n.name))!;
                assert.equal(flag(main(ds), "-gateway-interface"), n.gateway!.bridge);
                assert.equal(flag(main(ds), "-gateway-nexthop"), n.gateway!.defaultGateway);
            }
        });

        it("puts the planned subnet and a node-id whose join address is the planned one on every Node", () => {
            const join = toInt(cfg.joinSubnets[0].split("/")[0]);
            assert.equal(m.nodePlans.length, model.kube.nodes.length);
            for (const plan of m.nodePlans) {
                const name = plan.metadata.name;
                const a = plan.metadata.annotations;
                assert.deepEqual(JSON.parse(a["k8s.ovn.org/node-subnets"]), { default: [model.plan.subnets[name]] });
                // ovnkube gives GR_<node> the join address base + node-id.
                const id = Number(a["k8s.ovn.org/node-id"]);
                assert.equal(toInt(model.plan.gatewayJoinIps[name]), join + BigInt(id), name);
                // Interconnect: the Node names its zone, itself; and the transit port is the transit base + node-id.
                const group = model.kube.nodeGroups.find((g) => g.nodes.includes(name))!.name;
                assert.deepEqual(
                    plan.metadata.labels,
                    { "ovn-kubernetes-as-code/ovnkube-node-group": group, ...(ic ? { "k8s.ovn.org/zone-name": name } : {}) },
                    name,
                );
                const planned = model.kube.nodes.find((n) => n.name === name)!;
                if (ic) assert.equal(toInt(planned.transit![0].ip), toInt(cfg.transitSubnets[0].split("/")[0]) + BigInt(id), name);
                else assert.equal(planned.transit, undefined);
            }
            for (const pinned of cfg.nodes.filter((n) => n.subnets)) {
                assert.equal(
                    JSON.parse(m.nodePlans.find((p) => p.metadata.name === pinned.name)!.metadata.annotations["k8s.ovn.org/node-subnets"])
                        .default[0],
                    pinned.subnets![0],
                );
            }
        });

        it("passes every ovn-config key ovnkube has a flag for", () => {
            const databases = ic ? [] : ["OVN_NORTH", "OVN_SOUTH"];
            for (const ds of m.nodes) {
                const env = new Set(main(ds).env?.map((e) => e.name));
                for (const name of [
                    ...databases,
                    "K8S_APISERVER",
                    "OVN_NET_CIDR",
                    "OVN_SVC_CIDR",
                    "MTU",
                    "OVN_HOST_SUBNET_LENGTH",
                    "OVN_ENCAP_TYPE",
                    "K8S_NODE_IP",
                ]) {
                    assert.ok(env.has(name), name);
                }
                if (ic) assert.ok(!env.has("OVN_NORTH") && !env.has("OVN_SOUTH"));
            }
            assert.equal(flag(main(m.controlPlane), "-gateway-v4-join-subnet"), cfg.joinSubnets[0]);
            assert.equal(flag(main(m.controlPlane), "-gateway-v4-masquerade-subnet"), cfg.masqueradeSubnets[0]);
        });

        if (ic) {
            it("hands the cluster manager the stack's transit subnet, and ovn-config names no database", () => {
                assert.equal(flag(main(m.controlPlane), "-cluster-manager-v4-transit-subnet"), cfg.transitSubnets[0]);
                assert.ok(!("OvnNorth" in m.configMap.data) && !("OvnSouth" in m.configMap.data));
                assert.equal(flag(main(m.controlPlane), "-nb-address"), undefined);
            });
        } else {
            it("names the central's address as the SSL server name to verify", () => {
                const central = cfg.nodes.find((n) => n.roles.includes("central"))!;
                assert.equal(flag(main(m.controlPlane), "-nb-cert-common-name"), central.tunnelIp);
                assert.equal(m.configMap.data.OvnNorth, `ssl:${central.tunnelIp}:6641`);
            });
        }
    });
}
