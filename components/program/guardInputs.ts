// What the cluster's ChangeGuard and DestroyGuard judge: the stack's NB groups, hosts and centrals,
// and in ovnkube mode each node's NB, where ovnkube writes.
import { ownedGroups, type DestroyGuardInputs } from "../guard/destroyGuard";
import { centralHostsOf } from "../topology/context";
import { nbConnection } from "./connections";
import type { ClusterScope } from "./clusterScope";

export function guardInputs({ model, owner, nbKey, centralHost, nbOf }: ClusterScope): DestroyGuardInputs {
    return {
        nb: model.writer === "pulumi" && centralHost ? nbConnection(centralHost, nbKey) : undefined,
        owner,
        groups: ownedGroups(model),
        hosts: model.hosts.map((h) => ({ name: h.name, ssh: h.ssh, roles: h.roles })),
        centrals: centralHostsOf(model).map((h) => h.name),
        ...(model.writer === "ovnkube"
            ? {
                  ovnkube: {
                      version: model.kube.version,
                      architecture: model.architecture,
                      gatewayMode: model.kube.gatewayMode,
                      // Recorded only beside IPv4 alone, so that IPv4 clusters' records stay as they were.
                      ...(model.ipFamilies.join() === "ipv4" ? {} : { ipFamilies: model.ipFamilies }),
                      // Recorded only with OVN from the image, so that the packages mode's records stay as they were.
                      ...(model.ovnSource === "packages" ? {} : { ovnSource: model.ovnSource }),
                  },
                  ovnkubeNodes: model.kube.nodes.map((n) => ({ name: n.name, nb: nbOf(n.name) })),
              }
            : {}),
        ...nbKey,
    };
}
