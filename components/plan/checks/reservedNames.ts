// Names upstream gives a meaning of their own. With interconnect every Kubernetes node is a zone of
// its own, named after the node (OVN NB_Global.name, the k8s.ovn.org/zone-name annotation); the
// zone "global" is ovn-kubernetes' default zone, the one all nodes share without interconnect
// (go-controller/pkg/types/const.go:300 at v1.3.0), and ovnkube skips the interconnect work for it
// (e.g. pkg/node/obj_retry_node.go:228, pkg/ovn/egressgw.go:115): a node named so would be taken
// for the whole centralized cluster. docs/facts/ovnkube-1.3.md.
import { isK8sNode } from "../../model/nodes";
import type { StackConfigInput } from "../../config/types";

type Add = (path: string, message: string) => void;

/** types.OvnDefaultZone. */
export const OVN_DEFAULT_ZONE = "global";

/** Relation (interconnect): no Kubernetes node is named after a zone upstream reserves. */
export function reservedNameProblems(cfg: StackConfigInput, add: Add): void {
    cfg.nodes.forEach((n, i) => {
        if (isK8sNode(n) && n.name === OVN_DEFAULT_ZONE)
            add(
                `nodes[${i}].name`,
                `"${n.name}" is ovn-kubernetes' default zone, the one every node shares without interconnect; interconnect names each node's zone after the node, and ovnkube would skip that zone's interconnect setup; rename the node`,
            );
    });
}
