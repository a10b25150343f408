// The documented ovnkube-mode stack, through config validation and the cluster model, gives
// Kubernetes objects that pass the API schema, and they carry the model's plan: the model's kube
// part and these manifests agree on their contract.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { validateConfig } from "../../components/config/validate";
import { kubeManifests, manifestList } from "../../components/kube/manifests";
import { buildClusterModel } from "../../components/model/cluster";
import { toInt } from "../../components/values";
import { stackConfig } from "../support/configs";
import { affinityNodes, flag, main } from "./inspect";
import { validateObject } from "./schema";


describe("stack prod (ovnkube mode)", () => {
    const cfg = validateConfig(stackConfig("prod"));
    const model = buildClusterModel(cfg);
    const m = kubeManifests(model.kube);

    it("validates against the Kubernetes schema", () => {
        for (const obj of manifestList(m)) assert.doesNotThrow(() => validateObject(obj), `${obj.kind}/${obj.metadata.name}`);
    });

    it("places ovnkube-master on the stack's master nodes", () => {
        assert.deepEqual(affinityNodes(m.master), ["master-0"]);
    });

    it("runs one ovnkube-node per node group: the shared gateways on breth0 apart from the rest", () => {
        const k8sNodes = cfg.nodes.filter((n) => n.roles.includes("master") || n.roles.includes("node")).map((n) => n.name);
        assert.deepEqual(m.nodes.flatMap(affinityNodes).sort(), [...k8sNodes].sort());
        const shared = cfg.nodes.filter((n) => n.gateway?.mode === "shared");
        assert.ok(shared.length > 0);
        for (const n of shared) {
            const ds = m.nodes.find((d) => affinityNodes(d).includes(n.name))!;
            assert.equal(flag(main(ds), "-gateway-interface"), n.gateway!.bridge);
            assert.equal(flag(main(ds), "-gateway-nexthop"), n.gateway!.defaultGateway);
        }
    });

    it("puts the planned subnet and a node-id whose join address is the planned one on every Node", () => {
        const join = toInt(cfg.joinSubnet.split("/")[0]);
        assert.equal(m.nodePlans.length, model.kube.nodes.length);
        for (const plan of m.nodePlans) {
            const name = plan.metadata.name;
            const a = plan.metadata.annotations;
            assert.deepEqual(JSON.parse(a["k8s.ovn.org/node-subnets"]), { default: [model.plan.subnets[name]] });
            // ovnkube v1.0.0 gives GR_<node> the join address base + node-id.
            const id = Number(a["k8s.ovn.org/node-id"]);
            assert.equal(toInt(model.plan.gatewayJoinIps[name]), join + id, name);
        }
        for (const pinned of cfg.nodes.filter((n) => n.subnet)) {
            assert.equal(JSON.parse(m.nodePlans.find((p) => p.metadata.name === pinned.name)!.metadata.annotations["k8s.ovn.org/node-subnets"]).default[0], pinned.subnet);
        }
    });

    it("passes every ovn-config key ovnkube has a flag for, and the SSL names of the central", () => {
        for (const ds of m.nodes) {
            const env = new Set(main(ds).env?.map((e) => e.name));
            for (const name of ["OVN_NORTH", "OVN_SOUTH", "K8S_APISERVER", "OVN_NET_CIDR", "OVN_SVC_CIDR", "MTU", "OVN_HOST_SUBNET_LENGTH", "OVN_ENCAP_TYPE", "K8S_NODE_IP"]) {
                assert.ok(env.has(name), name);
            }
        }
        const central = cfg.nodes.find((n) => n.roles.includes("central"))!;
        assert.equal(flag(main(m.master), "-nb-cert-common-name"), central.tunnelIp);
        assert.equal(flag(main(m.master), "-gateway-v4-join-subnet"), cfg.joinSubnet);
    });
});
