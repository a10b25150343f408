// The Node patches that feed ovnkube the plan: node-subnets and node-id in the encoding ovnkube
// writes itself, the node group's label, with interconnect the transit address and the zone
// label, and the apply options @pulumi/kubernetes reads.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { kubeManifests } from "../../components/kube/manifests";
import { asPulumiNodePatch, NODE_PLAN_APPLY, nodePlanPatch } from "../../components/kube/nodeAnnotations";
import { interconnectModel, kubeModel } from "./fixture";

describe("Node plan patches", () => {
    const { nodePlans } = kubeManifests(kubeModel());

    it("patch every planned node, in the model's order", () => {
        assert.deepEqual(
            nodePlans.map((p) => p.metadata.name),
            ["master-0", "master-1", "worker-0", "worker-1"],
        );
    });

    it("carry only node-subnets as ovnkube's list form and node-id as a decimal string", () => {
        assert.deepEqual(nodePlans[2], {
            apiVersion: "v1",
            kind: "Node",
            metadata: {
                name: "worker-0",
                // The ovnkube-node DaemonSet that selects it.
                labels: { "ovn-kubernetes-as-code/ovnkube-node-group": "ovnkube-node-breth0-10-19-188-1" },
                annotations: {
                    // Byte for byte what ovnkube's json.Marshal of map[string][]string gives, so its
                    // cluster manager finds its own encoding and does not rewrite the annotation.
                    "k8s.ovn.org/node-subnets": '{"default":["10.128.2.0/23"]}',
                    "k8s.ovn.org/node-id": "3",
                },
            },
        });
    });

    it("interconnect: also label each Node with its zone, its own name, as upstream's docs have operators do", () => {
        const patches = kubeManifests(interconnectModel()).nodePlans;
        assert.deepEqual(
            patches.map((p) => p.metadata.labels?.["k8s.ovn.org/zone-name"]),
            patches.map((p) => p.metadata.name),
        );
        // The annotations are centralized's plus the transit address, base + node-id, in the form
        // ovnkube writes it: subnet, id and transit address change in one update.
        const model = interconnectModel();
        assert.deepEqual(
            patches.map((p) => p.metadata.annotations),
            model.nodes.map((n) => ({
                "k8s.ovn.org/node-subnets": JSON.stringify({ default: [n.subnets[0]] }),
                "k8s.ovn.org/node-id": String(n.nodeId),
                "k8s.ovn.org/node-transit-switch-port-ifaddr": JSON.stringify({ ipv4: n.transit![0].cidr }),
            })),
        );
        assert.deepEqual(JSON.parse(patches[0].metadata.annotations["k8s.ovn.org/node-transit-switch-port-ifaddr"]), {
            ipv4: "100.88.0.2/16",
        });
        assert.deepEqual(nodePlanPatch(kubeModel().nodes[0], "interconnect", "ovnkube-node").metadata.labels, {
            "ovn-kubernetes-as-code/ovnkube-node-group": "ovnkube-node",
            "k8s.ovn.org/zone-name": "master-0",
        });
        assert.deepEqual(nodePlanPatch(kubeModel().nodes[0], "centralized", "ovnkube-node").metadata.labels, {
            "ovn-kubernetes-as-code/ovnkube-node-group": "ovnkube-node",
        });
    });

    it("follow the model's plan", () => {
        const node = { ...kubeModel().nodes[0], subnets: ["10.130.4.0/23"], nodeId: 4711 };
        assert.deepEqual(nodePlanPatch(node, "centralized", "ovnkube-node").metadata.annotations, {
            "k8s.ovn.org/node-subnets": '{"default":["10.130.4.0/23"]}',
            "k8s.ovn.org/node-id": "4711",
        });
    });

    it("are applied by one named field manager, forced over ovnkube's own writes", () => {
        assert.deepEqual(NODE_PLAN_APPLY, { fieldManager: "ovn-kubernetes-node-plan", force: true });
        const body = asPulumiNodePatch(nodePlans[0]);
        assert.equal(body.metadata.annotations["pulumi.com/patchFieldManager"], "ovn-kubernetes-node-plan");
        assert.equal(body.metadata.annotations["pulumi.com/patchForce"], "true");
        assert.equal(body.metadata.annotations["k8s.ovn.org/node-id"], "2");
        assert.equal(body.metadata.name, "master-0");
        // The plain body is left as it was.
        assert.equal(Object.keys(nodePlans[0].metadata.annotations).length, 2);
    });
});
