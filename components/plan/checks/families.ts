// The address families of a stack: clusterSubnet decides them (one CIDR, or one of each family for
// dual stack), and every other range, pinned subnet and node address list follows it, one entry per
// family in its order, as ovnkube's flags and annotations pair them. IPv6 is ovnkube's: the
// project's own Northbound topology (Pulumi mode) is the seeds' IPv4 one.
import { familyOf, type Cidr, type IpFamily } from "../../values";
import { clusterFamilies, familyName, FAMILY_DEFAULTS, listOf, RANGE_KEYS, type RangeKey } from "../../config/families";
import { isK8sNode, nodeIpsOf, tunnelIpOf } from "../../model/nodes";
import type { StackConfigInput } from "../../config/types";

type Add = (path: string, message: string) => void;

const names = (families: readonly IpFamily[]) => families.map(familyName).join(" and ");

/** Relation: a per-family setting has one entry of each of the cluster's families, in clusterSubnet's order. */
function followsCluster(path: string, value: string | undefined, families: readonly IpFamily[], what: string, add: Add): void {
    const list = listOf(value);
    if (list.length === 0) return;
    if (list.length !== families.length)
        return add(
            path,
            `has ${list.length} ${what} for the cluster's ${families.length} address ${families.length === 1 ? "family" : "families"} (clusterSubnet is ${names(families)}): give one per family, in clusterSubnet's order, joined by a comma`,
        );
    list.forEach((v, k) => {
        const f = familyOf(v);
        if (f && f !== families[k])
            add(
                path,
                `${v} is ${familyName(f)}, but clusterSubnet's ${families.length > 1 ? `${ORDINAL[k]} entry` : "range"} is ${familyName(families[k])}: give one per family, in clusterSubnet's order`,
            );
    });
}

const ORDINAL = ["first", "second"];

/** The cluster's families, when clusterSubnet names them consistently; every mismatch is reported. */
export function familyProblems(cfg: StackConfigInput, ovnkubeMode: boolean, add: Add): IpFamily[] | undefined {
    const families = clusterFamilies(cfg);
    if (families.length === 2 && families[0] === families[1]) {
        add("clusterSubnet", `both entries are ${familyName(families[0])}: dual stack takes one CIDR of each family`);
        return undefined;
    }
    if (!ovnkubeMode && families.includes("ipv6")) {
        add(
            "clusterSubnet",
            "IPv6 needs ovnkube mode (kubernetes.enabled true): with kubernetes.enabled false the project writes the seeds' Northbound topology, which is IPv4 only (docs/dual-stack.md); use IPv4 ranges, or let ovnkube realise the topology",
        );
        return undefined;
    }
    for (const key of RANGE_KEYS.filter((k) => k !== "clusterSubnet")) followsCluster(key, cfg[key], families, "CIDRs", add);
    if (cfg.hostSubnetLength !== undefined && !families.includes("ipv4"))
        add(
            "hostSubnetLength",
            `is the IPv4 node subnet length, and the cluster has no IPv4 range: IPv6 node subnets are /${FAMILY_DEFAULTS.hostSubnetLength.ipv6}, the only length ovnkube takes (go-controller/pkg/config/utils.go:103 at v1.3.0); remove it`,
        );
    cfg.nodes.forEach((n, i) => {
        const p = `nodes[${i}]`;
        followsCluster(`${p}.subnet`, n.subnet, families, "pinned subnets", add);
        if (n.nodeIp !== undefined && !ovnkubeMode) add(`${p}.nodeIp`, "applies to ovnkube mode only (the kubelet's --node-ip); remove it");
        else if (n.nodeIp !== undefined) {
            followsCluster(`${p}.nodeIp`, n.nodeIp, families, "addresses", add);
            // ovnkube-node's -encap-ip is the pod's status.hostIP: the kubelet's first --node-ip.
            const tunnel = tunnelIpOf(n);
            const primary = listOf(n.nodeIp)[0];
            if (isK8sNode(n) && tunnel !== undefined && tunnel !== primary)
                add(
                    n.tunnelIp === undefined ? `${p}.address` : `${p}.tunnelIp`,
                    `${tunnel} is not the first address of nodes[${i}].nodeIp (${primary}): ovnkube-node tunnels from the Node's primary address (status.hostIP, the kubelet's first --node-ip); make them one`,
                );
        } else if (ovnkubeMode && isK8sNode(n) && families.length > 1)
            add(
                `${p}.nodeIp`,
                `required in a dual-stack cluster: the node's ${names(families)} addresses joined by a comma, in clusterSubnet's order, as its kubelet's --node-ip has them`,
            );
        else if (ovnkubeMode && isK8sNode(n)) {
            const own = nodeIpsOf(n)[0];
            if (own && familyOf(own) !== families[0])
                add(
                    n.tunnelIp === undefined ? `${p}.address` : `${p}.tunnelIp`,
                    `${own} is ${familyName(familyOf(own)!)}, but the cluster is ${familyName(families[0])} only: the node's own address is of the cluster's family; give nodeIp, or a tunnelIp of that family`,
                );
        }
        if (n.tunnelIp !== undefined && familyOf(n.tunnelIp) === "ipv6" && !ovnkubeMode)
            add(`${p}.tunnelIp`, "an IPv6 tunnel needs ovnkube mode: the project's own topology (kubernetes.enabled false) is IPv4 only");
    });
    return families;
}

/** One family's ranges as the semantic checks parsed them, with the paths they came from. */
export interface FamilyNets {
    family: IpFamily;
    /** Its place in the cluster's family order. */
    k: number;
    cluster?: Cidr;
    service?: Cidr;
    join?: Cidr;
    /** Interconnect only. */
    transit?: Cidr;
    /** ovnkube mode only. */
    masquerade?: Cidr;
    hostSubnetLength: number;
    /** The path of a range setting (one path for both families' entries). */
    path: (key: RangeKey) => string;
}
