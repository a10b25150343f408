// A pinned node subnet is exactly one of ovnkube's host subnets. In ovnkube mode the plan reaches
// ovnkube as the node's `k8s.ovn.org/node-subnets` annotation, which the cluster manager keeps
// without looking at its prefix length and then records by its exact CIDR text, while it carves
// every other node's subnet at the length of `--cluster-subnets` (docs/facts/ovnkube-1.3.md,
// "node-subnets"): a /23 pinned where the others are /24 can overlap a later node's allocation.
// Pulumi mode allocates around pinned subnets of any size itself (./capacity.ts). Judged per
// address family: each family's pinned subnet against that family's host subnet length.
import { safeNetwork } from "./capacity";
import { listOf } from "../../config/families";
import type { StackConfigInput } from "../../config/types";
import type { FamilyNets } from "./families";

type Add = (path: string, message: string) => void;

/** Relation (ovnkube mode): every pinned `nodes[].subnet` of the family is as long as its host subnet length. */
export function nodeSubnetSizeProblems(cfg: StackConfigInput, f: Pick<FamilyNets, "family" | "k" | "hostSubnetLength">, add: Add): void {
    const length = f.hostSubnetLength;
    // hostSubnetLength is the IPv4 length; IPv6 host subnets are /64 only (config/utils.go:103).
    const [setting, fix] =
        f.family === "ipv6"
            ? [`IPv6 node subnets are /${length}`, (_: number) => `pin a /${length}`]
            : [`hostSubnetLength is ${length}`, (p: number) => `pin a /${length} or set hostSubnetLength to ${p}`];
    cfg.nodes.forEach((n, i) => {
        const text = listOf(n.subnet)[f.k];
        const pinned = text === undefined ? undefined : safeNetwork(text);
        if (pinned === undefined || pinned.prefix === length) return;
        add(
            `nodes[${i}].subnet`,
            `${pinned.text} is a /${pinned.prefix}, but ${setting}: ovnkube allocates every other node a /${length} and keeps a pinned subnet by its exact CIDR, so the two can overlap; ${fix(pinned.prefix)}`,
        );
    });
}
