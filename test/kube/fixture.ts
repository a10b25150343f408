// A KubeModel as the model layer produces it for a small secure cluster (values of the seeds).
import type { KubeModel } from "../../components/model/types";

export function kubeModel(overrides: Partial<KubeModel> = {}): KubeModel {
    return {
        namespace: "ovn-kubernetes",
        image: "registry.example.com/ovn-kube:v1.0.0",
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
        joinSubnet: "100.64.0.0/16",
        nodes: [
            { name: "master-0", subnet: "10.128.0.0/23", nodeId: 2, gatewayRouterJoin: { ip: "100.64.0.2", cidr: "100.64.0.2/16", mac: "0a:58:64:40:00:02" }, encapIp: "10.19.188.22", gatewayIp: "10.19.188.22" },
            { name: "worker-0", subnet: "10.128.2.0/23", nodeId: 3, gatewayRouterJoin: { ip: "100.64.0.3", cidr: "100.64.0.3/16", mac: "0a:58:64:40:00:03" }, encapIp: "10.19.188.23", gatewayIp: "10.19.188.23" },
        ],
        nodeGroups: [{ name: "ovnkube-node", nodes: ["master-0", "worker-0"], gatewayInterface: "breth0" }],
        ...overrides,
    };
}
