// A pinned node subnet is exactly one of ovnkube's host subnets. In ovnkube mode the plan reaches
// ovnkube as the node's `k8s.ovn.org/node-subnets` annotation, which the cluster manager keeps
// without looking at its prefix length and then records by its exact CIDR text, while it carves
// every other node's subnet at the length of `--cluster-subnets` (docs/facts/ovnkube-1.3.md,
// "node-subnets"): a /23 pinned where the others are /24 can overlap a later node's allocation.
// Pulumi mode allocates around pinned subnets of any size itself (./capacity.ts).
import { safeNetwork } from "./capacity";
import type { StackConfigInput } from "../../config/types";

type Add = (path: string, message: string) => void;

/** Relation (ovnkube mode): every pinned `nodes[].subnet` is as long as `hostSubnetLength`. */
export function nodeSubnetSizeProblems(cfg: StackConfigInput & { hostSubnetLength: number }, add: Add): void {
    cfg.nodes.forEach((n, i) => {
        const pinned = n.subnet === undefined ? undefined : safeNetwork(n.subnet);
        if (pinned === undefined || pinned.prefix === cfg.hostSubnetLength) return;
        add(
            `nodes[${i}].subnet`,
            `${pinned.text} is a /${pinned.prefix}, but hostSubnetLength is ${cfg.hostSubnetLength}: ovnkube allocates every other node a /${cfg.hostSubnetLength} and keeps a pinned subnet by its exact CIDR, so the two can overlap; pin a /${cfg.hostSubnetLength} or set hostSubnetLength to ${pinned.prefix}`,
        );
    });
}
