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
        ...overrides,
    };
}
