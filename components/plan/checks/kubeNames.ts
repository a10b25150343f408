// Kubernetes object names the project derives from the config: two that come out equal after
// sanitising into a DNS-1123 name would be one object where two are meant (the second DaemonSet
// would replace the first's pods), and a namespace the stack creates twice would be deleted with
// either. A pure check over the built model.
import { HOST_NETWORK_NAMESPACE } from "../../kube/objectNames";
import type { ClusterModel } from "../../model/types";
import type { Problem } from "../../config/problem";
import type { StackConfig } from "../../config/types";

/** The setting that sets a node group apart: its gateway bridge, else its tunnel NIC. */
function groupPath(cfg: StackConfig, node: string): string {
    const i = cfg.nodes.findIndex((n) => n.name === node);
    const n = cfg.nodes[i];
    return n?.gateway ? `nodes[${i}].gateway.bridge` : `nodes[${i}].tunnelInterface`;
}

/** Relation: every derived object name is unique within its kind. */
export function kubeNameClashes(cfg: StackConfig, model: ClusterModel): Problem[] {
    const problems: Problem[] = [];
    if (model.writer !== "ovnkube") return problems;
    const seen = new Map<string, string>();
    for (const g of model.kube.nodeGroups) {
        const first = seen.get(g.name);
        const path = groupPath(cfg, g.nodes[0]);
        if (first === undefined) seen.set(g.name, path);
        else
            problems.push({
                path,
                message: `${g.gatewayInterface ?? "(none)"} gives the ovnkube-node DaemonSet the name "${g.name}", as ${first} does once made a Kubernetes name (lower case, "-" for "_" and "."): one DaemonSet would replace the other; choose a bridge name that differs in letters or digits`,
            });
    }
    if (model.kube.namespace === HOST_NETWORK_NAMESPACE)
        problems.push({
            path: "kubernetes.namespace",
            message: `"${HOST_NETWORK_NAMESPACE}" is the namespace the project creates for host-network traffic; the stack would create it twice and delete it with either; use another namespace such as ovn-kubernetes`,
        });
    return problems;
}
