// A KubeModel as the model layer produces it in ovnkube mode for a small secure cluster: two
// masters, two workers, one of them a shared gateway on breth0 with its own next hop, so the nodes
// fall into two groups. Centralized (one central's NB/SB) without node identities unless
// overridden; `interconnectModel` is the same cluster with a zone per node and node identities on,
// as the model has them by default; `bothArchitectures` lists the two for tests that hold for
// each, so that a model with and one without identities are both covered.
import type { IdentityModel, KubeModel, OvnkubeNodeModel } from "../../components/model/types";
import { labCrdUrls } from "../../lab/harness/crdMirror";
import { EGRESS_IP_HEALTH_CHECK, featureSettings } from "../../components/config/features";

const JOIN_BASE = "100.64.0.";
const TRANSIT_BASE = "100.88.0.";

/** A node as the model plans it: join address base + node-id; shared gateways SNAT to the node's own address. */
function planned(name: string, subnet: string, nodeId: number, encapIp: string): OvnkubeNodeModel {
    const join = `${JOIN_BASE}${nodeId}`;
    return {
        name,
        subnets: [subnet],
        nodeId,
        gatewayRouterJoin: [{ ip: join, cidr: `${join}/16`, mac: `0a:58:64:40:00:${nodeId.toString(16).padStart(2, "0")}` }],
        transit: [
            {
                ip: `${TRANSIT_BASE}${nodeId}`,
                cidr: `${TRANSIT_BASE}${nodeId}/16`,
                mac: `0a:58:64:58:00:${nodeId.toString(16).padStart(2, "0")}`,
            },
        ],
        encapIp,
        gatewayIps: [encapIp],
    };
}

export function kubeModel(overrides: Partial<KubeModel> = {}): KubeModel {
    return {
        namespace: "ovn-kubernetes",
        version: "1.3",
        architecture: "centralized",
        image: "registry.example.com/ovn-kube:v1.3.0",
        // The release's CRDs from the lab's copy: file URLs, so nothing reads upstream's.
        crdUrls: labCrdUrls("1.3"),
        ipFamilies: ["ipv4"],
        transitSubnets: ["100.88.0.0/16"],
        masqueradeSubnets: ["169.254.0.0/17"],
        // The chart's defaults, as a stack that names no feature has them.
        gatewayMode: "shared",
        ovnSource: "packages",
        features: featureSettings(),
        egressIpHealthCheckPort: EGRESS_IP_HEALTH_CHECK.chartDefault,
        config: {
            OvnNorth: "tcp:10.19.188.22:6641",
            OvnSouth: "tcp:10.19.188.22:6642",
            k8s_apiserver: "https://10.19.188.22:6443",
            net_cidr: "10.128.0.0/14",
            svc_cidr: "172.30.0.0/16",
            host_subnet_length: "23",
            mtu: "1400",
            encap_type: "geneve",
        },
        masterNodes: ["master-0", "master-1"],
        secureApi: true,
        joinSubnets: ["100.64.0.0/16"],
        clusterRouterJoin: [{ ip: "100.64.0.1", cidr: "100.64.0.1/16", mac: "0a:58:64:40:00:01" }],
        nodes: [
            planned("master-0", "10.128.0.0/23", 2, "10.19.188.22"),
            planned("master-1", "10.128.6.0/23", 5, "10.19.188.21"),
            planned("worker-0", "10.128.2.0/23", 3, "10.19.188.23"),
            planned("worker-1", "10.128.4.0/23", 4, "10.19.188.24"),
        ],
        nodeGroups: [
            { name: "ovnkube-node-default", nodes: ["master-0", "master-1", "worker-1"] },
            { name: "ovnkube-node-breth0-10-19-188-1", nodes: ["worker-0"], gatewayInterface: "breth0", gatewayNexthop: "10.19.188.1" },
        ],
        ...overrides,
    };
}

/** The same cluster with every node in one group, as the model names it then. */
export function oneGroupModel(overrides: Partial<KubeModel> = {}): KubeModel {
    const base = kubeModel();
    return kubeModel({
        nodeGroups: [{ name: "ovnkube-node", nodes: base.nodes.map((n) => n.name), gatewayInterface: "breth0" }],
        ...overrides,
    });
}

/** Node identities as the model has them by default: the webhook on localhost, kubeadm's kubelet kubeconfig. */
export const IDENTITY: Readonly<IdentityModel> = {
    webhookAddress: "localhost",
    listen: "localhost",
    bootstrapKubeconfig: "/etc/kubernetes/kubelet.conf",
};

/** The same cluster with interconnect: a zone per node, no central, so no database addresses; node identities on. */
export function interconnectModel(overrides: Partial<KubeModel> = {}): KubeModel {
    const base = kubeModel();
    const { OvnNorth: _n, OvnSouth: _s, ...config } = base.config;
    return kubeModel({ architecture: "interconnect", config, identity: { ...IDENTITY }, ...overrides });
}

/** The fixture cluster in each architecture, for tests that hold for both. */
export function bothArchitectures(overrides: Partial<KubeModel> = {}): Array<[KubeModel["architecture"], KubeModel]> {
    return [
        ["interconnect", interconnectModel(overrides)],
        ["centralized", kubeModel(overrides)],
    ];
}
