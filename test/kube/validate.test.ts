// A model ovnkube could not run with, or a plan it would not keep, is refused before any object
// exists, naming the field and the reason.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { kubeManifests } from "../../components/kube/manifests";
import type { KubeModel } from "../../components/model/types";
import { interconnectModel, kubeModel } from "./fixture";

const withConfig = (config: Record<string, string>) => kubeModel({ config: { ...kubeModel().config, ...config } });
const withNodes = (edit: (nodes: KubeModel["nodes"]) => KubeModel["nodes"]) => kubeModel({ nodes: edit(kubeModel().nodes) });
const withGroups = (edit: (groups: KubeModel["nodeGroups"]) => KubeModel["nodeGroups"]) =>
    kubeModel({ nodeGroups: edit(kubeModel().nodeGroups) });

describe("validateKubeModel", () => {
    it("accepts the fixture in both architectures", () => {
        assert.doesNotThrow(() => kubeManifests(kubeModel()));
        assert.doesNotThrow(() => kubeManifests(interconnectModel()));
    });

    it("accepts CRDs from upstream's https URLs, v1.2's templates included", () => {
        const crdUrls = [
            "https://raw.githubusercontent.com/ovn-kubernetes/ovn-kubernetes/v1.3.0/helm/ovn-kubernetes/crds/k8s.ovn.org_egressips.yaml",
            "https://raw.githubusercontent.com/ovn-kubernetes/ovn-kubernetes/v1.2.0/dist/templates/k8s.ovn.org_egressips.yaml.j2",
        ];
        assert.doesNotThrow(() => kubeManifests(interconnectModel({ crdUrls })));
    });

    const cases: Array<[string, ReturnType<typeof kubeModel>, RegExp]> = [
        ["a namespace that is no DNS label", kubeModel({ namespace: "OVN_kube" }), /^kube\.namespace: /],
        ["an image with spaces", kubeModel({ image: "ovn-kube latest" }), /^kube\.image: /],
        ["no master", kubeModel({ masterNodes: [] }), /^kube\.masterNodes: is empty/],
        [
            "a master name that is no node name",
            kubeModel({ masterNodes: ["Master 0"] }),
            /^kube\.masterNodes\[0\]: "Master 0" is not a Kubernetes node name/,
        ],
        ["a token in ovn-config", withConfig({ k8s_token: "abc" }), /^kube\.config\.k8s_token: looks like a credential/],
        ["a CA in ovn-config", withConfig({ k8s_cacert: "-----BEGIN" }), /^kube\.config\.k8s_cacert: looks like a credential/],
        [
            "a missing OvnNorth (centralized)",
            kubeModel({ config: { ...kubeModel().config, OvnNorth: "" } }),
            /^kube\.config\.OvnNorth: is required/,
        ],
        [
            "a missing OvnSouth (centralized)",
            kubeModel({ config: (({ OvnSouth: _, ...c }) => c)(kubeModel().config) }),
            /^kube\.config\.OvnSouth: is required/,
        ],
        [
            "an OvnNorth with interconnect",
            interconnectModel({ config: { ...interconnectModel().config, OvnNorth: "tcp:10.0.0.1:6641" } }),
            /^kube\.config\.OvnNorth: is set, but interconnect zones use their own databases' unix sockets/,
        ],
        [
            "an OvnSouth with interconnect",
            interconnectModel({ config: { ...interconnectModel().config, OvnSouth: "tcp:10.0.0.1:6642" } }),
            /^kube\.config\.OvnSouth: is set, but interconnect/,
        ],
        [
            "a transit subnet that is no CIDR (interconnect)",
            interconnectModel({ transitSubnets: ["100.88.0.0"] }),
            /^kube\.transitSubnets\[0\]: "100\.88\.0\.0" is not an IPv4 or IPv6 CIDR/,
        ],
        ["a masquerade subnet that is no CIDR", kubeModel({ masqueradeSubnets: ["169.254.0.0/40"] }), /^kube\.masqueradeSubnets\[0\]: /],
        [
            "a CRD URL of another scheme",
            kubeModel({ crdUrls: ["ftp://example.com/k8s.ovn.org_egressips.yaml"] }),
            /^kube\.crdUrls\[0\]: "ftp:\/\/example\.com\/k8s\.ovn\.org_egressips\.yaml" is not an http\(s\) or file URL of a YAML file/,
        ],
        ["a CRD URL that is no YAML file", interconnectModel({ crdUrls: ["https://example.com/crds/"] }), /^kube\.crdUrls\[0\]: /],
        ["a CRD URL with a space", kubeModel({ crdUrls: ["file:///srv/my crds/k8s.ovn.org_egressips.yaml"] }), /^kube\.crdUrls\[0\]: /],
        [
            "an http API marked secure",
            withConfig({ k8s_apiserver: "http://10.0.0.1:8080" }),
            /^kube\.config\.k8s_apiserver: .*secureApi=true/,
        ],
        ["an https API marked insecure", kubeModel({ secureApi: false }), /^kube\.config\.k8s_apiserver: .*secureApi=false/],
        [
            "a join subnet that is no CIDR",
            kubeModel({ joinSubnets: ["100.64.0.0"] }),
            /^kube\.joinSubnets\[0\]: "100\.64\.0\.0" is not an IPv4 or IPv6 CIDR/,
        ],
        [
            "a node planned twice",
            withNodes((n) => [...n, n[0]]),
            /^kube\.nodes\[4\]\.name: "master-0" is planned twice \(also nodes\[0\]\)/,
        ],
        [
            "a node-id below ovnkube's range",
            withNodes((n) => [{ ...n[0], nodeId: 1 }, ...n.slice(1)]),
            /^kube\.nodes\[0\]\.nodeId: 1 is outside ovnkube's node-id range 2…5000/,
        ],
        [
            "a node-id above ovnkube's range",
            withNodes((n) => [{ ...n[0], nodeId: 5001 }, ...n.slice(1)]),
            /^kube\.nodes\[0\]\.nodeId: 5001 is outside/,
        ],
        [
            "two nodes with one node-id",
            withNodes((n) => [n[0], { ...n[1], nodeId: n[0].nodeId }, ...n.slice(2)]),
            /^kube\.nodes\[1\]\.nodeId: 2 is also the node-id of master-0/,
        ],
        [
            "a subnet that is no CIDR",
            withNodes((n) => [{ ...n[0], subnets: ["10.128.0.0/33"] }, ...n.slice(1)]),
            /^kube\.nodes\[0\]\.subnets\[0\]: /,
        ],
        [
            "a master without a plan",
            kubeModel({ masterNodes: ["master-0", "master-9"] }),
            /^kube\.masterNodes\[1\]: "master-9" has no plan/,
        ],
        ["no node group", kubeModel({ nodeGroups: [] }), /^kube\.nodeGroups: is empty/],
        [
            "a node in two groups",
            withGroups((g) => [g[0], { ...g[1], nodes: ["worker-0", "master-0"] }]),
            /^kube\.nodeGroups\[1\]\.nodes\[1\]: "master-0" is also in group ovnkube-node-default/,
        ],
        [
            "a node in no group",
            withGroups((g) => [{ ...g[0], nodes: ["master-0", "master-1"] }, g[1]]),
            /^kube\.nodeGroups: no group holds "worker-1"/,
        ],
        [
            "a group node without a plan",
            withGroups((g) => [g[0], { ...g[1], nodes: ["worker-0", "worker-9"] }]),
            /^kube\.nodeGroups\[1\]\.nodes\[1\]: "worker-9" has no plan/,
        ],
        [
            "two groups of one name",
            withGroups((g) => [g[0], { ...g[1], name: g[0].name }]),
            /^kube\.nodeGroups\[1\]\.name: "ovnkube-node-default" names two node groups/,
        ],
        [
            "a group name too long for a label",
            withGroups((g) => [{ ...g[0], name: `ovnkube-node-${"x".repeat(60)}` }, g[1]]),
            /^kube\.nodeGroups\[0\]\.name: .* is not a DNS-1123 label/,
        ],
        ["an empty group", withGroups((g) => [...g, { name: "ovnkube-node-empty", nodes: [] }]), /^kube\.nodeGroups\[2\]\.nodes: is empty/],
        [
            "a gateway interface with a space",
            withGroups((g) => [g[0], { ...g[1], gatewayInterface: "br eth0" }]),
            /^kube\.nodeGroups\[1\]\.gatewayInterface: "br eth0" is not a network interface name/,
        ],
        [
            "a gateway next hop that is no address",
            withGroups((g) => [g[0], { ...g[1], gatewayNexthop: "10.19.188.256" }]),
            /^kube\.nodeGroups\[1\]\.gatewayNexthop: "10\.19\.188\.256" is not an IPv4 address/,
        ],
    ];
    for (const [what, model, message] of cases) {
        it(`refuses ${what}`, () => {
            assert.throws(() => kubeManifests(model), { message });
        });
    }
});
