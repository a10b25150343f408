// What a running ovnkube-mode cluster may not change in one `up`: its architecture (upstream
// removed the zone migration in 1.3: commit 7d408c1ca, "Remove IC zone migration HACK code"), its
// release going back (upstream upgrades forward only; a CRD or annotation of the newer release
// may not be understood by the older one), and its gateway mode (upstream documents no switch of a
// running cluster; its node code only cleans up some of local mode's rules after one, e.g.
// node/gateway_nftables.go:584-585 at v1.3.0, and this project has not proven one). The guards
// record them and refuse at preview, naming before and after and what to do. Provider code: plain
// data and functions only.
import { OVNKUBE_VERSIONS } from "../config/releases";

/** What the guards record of ovnkube mode; absent in Pulumi mode (and in state written before it). */
export interface RecordedRelease {
    version: string;
    architecture: string;
    /** Absent in state written before it was recorded, when every cluster ran the shared mode. */
    gatewayMode?: string;
    /** The address families, the primary first; absent: IPv4 alone. */
    ipFamilies?: string[];
    /** Where OVN runs; absent: the hosts' packages. */
    ovnSource?: string;
}

/** The gateway mode of clusters recorded before the setting existed. */
const RECORDED_BEFORE_GATEWAY_MODE = "shared";

/** Why `news` may not follow `olds`, or undefined. Pure. */
export function releaseChangeRefusal(olds: RecordedRelease | undefined, news: RecordedRelease | undefined): string | undefined {
    if (!olds || !news) return undefined;
    if (olds.architecture !== news.architecture)
        return (
            `ovnkube.architecture ${olds.architecture} → ${news.architecture} stopped before anything was changed: a running cluster cannot change ` +
            `its architecture in place (ovn-kubernetes removed its zone migration in 1.3). Keep ${olds.architecture}, or create the cluster anew: ` +
            `pulumi destroy (drain first), then pulumi up with ovnkube.architecture: ${news.architecture}`
        );
    // Newest first: a higher index is an older release.
    const rank = (v: string) => OVNKUBE_VERSIONS.indexOf(v as (typeof OVNKUBE_VERSIONS)[number]);
    if (rank(news.version) > rank(olds.version) && rank(olds.version) >= 0)
        return (
            `ovnkube.version ${olds.version} → ${news.version} stopped before anything was changed: ovn-kubernetes upgrades forward only, and ` +
            `${olds.version}'s CRDs and annotations may not be understood by ${news.version}. Keep ${olds.version}, or create the cluster anew with ${news.version}`
        );
    const [oldMode, newMode] = [olds.gatewayMode ?? RECORDED_BEFORE_GATEWAY_MODE, news.gatewayMode ?? RECORDED_BEFORE_GATEWAY_MODE];
    if (oldMode !== newMode)
        return (
            `ovnkube.gatewayMode ${oldMode} → ${newMode} stopped before anything was changed: ovn-kubernetes documents no switch of a running cluster's ` +
            `gateway mode (every node's gateway router, host routes and nftables rules differ between them), and none is proven here. Keep ${oldMode}, ` +
            `or create the cluster anew: pulumi destroy (drain first), then pulumi up with ovnkube.gatewayMode: ${newMode}`
        );
    const [oldFamilies, newFamilies] = [(olds.ipFamilies ?? ["ipv4"]).join(" and "), (news.ipFamilies ?? ["ipv4"]).join(" and ")];
    if (oldFamilies !== newFamilies)
        return (
            `the address families ${oldFamilies} → ${newFamilies} (clusterSubnet) stopped before anything was changed: ovn-kubernetes' cluster ` +
            `manager re-allocates node subnets for a new family (clustermanager/node/node_allocator.go:221-224, :355 at v1.3.0), but every node's ` +
            `gateway, management port and the API server's service range must change with it, and no such conversion is proven here. Keep ` +
            `${oldFamilies}, or create the cluster anew: pulumi destroy (drain first), then pulumi up with the new ranges`
        );
    const [oldSource, newSource] = [olds.ovnSource ?? "packages", news.ovnSource ?? "packages"];
    if (oldSource !== newSource)
        return (
            `ovnkube.ovnSource ${oldSource} → ${newSource} stopped before anything was changed: every zone's databases and ovn-controller would move ` +
            `between the host and the ovnkube-node pod, which ovn-kubernetes documents no move for and none is proven here. Keep ${oldSource}, or ` +
            `create the cluster anew: pulumi destroy (drain first), then pulumi up with ovnkube.ovnSource: ${newSource} (docs/modes.md#where-ovn-comes-from)`
        );
    return undefined;
}
