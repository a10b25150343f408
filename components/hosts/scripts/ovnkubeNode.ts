// What ovnkube-node leaves on its host, undone once its pod has gone (ovnkube mode's destroy).
import type { KubeModel } from "../../model/types";
import { checked } from "../../values";
import { bashScript, type HostScript } from "./shell";

/** Where ovnkube-node writes the CNI configuration and the shim is installed (../../kube/hostPaths). */
export const OVNKUBE_CNI_FILES = { conf: "/etc/cni/net.d/10-ovn-kubernetes.conf", shim: "/opt/cni/bin/ovn-k8s-cni-overlay" } as const;

/**
 * ovnkube-node's routing rule for host-to-service traffic of `internalTrafficPolicy: Local`
 * services, `<priority>: from all fwmark <mark> lookup <table>` in both families, and the table
 * whose routes go out through the management port (ovn-kubernetes v1.3.0:
 * go-controller/pkg/node/managementport/port_linux.go:705 adds it, :42 names the table;
 * go-controller/pkg/types/const.go:347 the mark).
 */
export const OVNKUBE_ITP_RULE = { priority: "30", mark: "0x1745ec", table: "7" } as const;

/** Where the record of the host's nftables tables before ovnkube-node ran is kept (persistent, root-only directory). */
export const TABLES_BEFORE = "/etc/openvswitch/host-network.d/ovnkube-node-tables.before";
/** Where the sysctls ovnkube-node changes are kept as they were before it ran (same directory). */
export const SYSCTLS_BEFORE = "/etc/openvswitch/host-network.d/ovnkube-node-sysctls.before";

/** Records what the cleanup must leave (ovnkube-node sets the host up); the delete removes what it set up. */
export function ovnkubeNodeCleanupScript(node: string, kube: Pick<KubeModel, "masqueradeSubnets">): HostScript {
    const before = { tables_before: TABLES_BEFORE, sysctls_before: SYSCTLS_BEFORE };
    const vars = {
        masquerade_subnet: kube.masqueradeSubnets.map((c, k) => checked(`masqueradeSubnets[${k}]`, c, "ipCidr")).join(" "),
        cni_conf: OVNKUBE_CNI_FILES.conf,
        cni_shim: OVNKUBE_CNI_FILES.shim,
        ...before,
        itp_rule_priority: OVNKUBE_ITP_RULE.priority,
        itp_mark: OVNKUBE_ITP_RULE.mark,
        itp_table: OVNKUBE_ITP_RULE.table,
    };
    const name = checked("node", node, "nodeName");
    return {
        create: bashScript(before, ["ovnkube-node-record"]),
        delete: bashScript(vars, ["ovnkube-node-cleanup"]),
    };
}
