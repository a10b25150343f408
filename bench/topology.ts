// The benchmark's topology: the cluster router, every node network and a few gateways of a
// scale model (the kinds' registry says which), as provider inputs (one resource each) and as
// row specs (for the floor).
import { NB_KIND_LIST, type NbKindName } from "@ovn-kubernetes-as-code/cluster/nb";
import type { RowSpec } from "@ovn-kubernetes-as-code/cluster/nb";
import type { ClusterModel } from "@ovn-kubernetes-as-code/cluster/model";

export interface Resource {
    type: NbKindName;
    /** The kind's own inputs (without nb, owner, version). */
    inputs: Record<string, unknown>;
}

export type GatewayHosts = Record<string, { systemId: string; macAddress: string }>;

/** Every kind's instances with the host facts filled in, in apply order. */
function instances(model: ClusterModel, hosts: GatewayHosts): Resource[] {
    return NB_KIND_LIST.flatMap((kind) =>
        kind.instances(model).map((i) => ({
            type: kind.type as NbKindName,
            inputs: kind.normalize({ ...i.inputs, ...(Object.keys(i.placeholders).length ? hosts[i.name] : {}) }),
        })),
    );
}

export function resources(model: ClusterModel, hosts: GatewayHosts): { router: Resource; rest: Resource[] } {
    const [router, ...rest] = instances(model, hosts);
    return { router, rest };
}

/** Row specs per group; `nodes` and `gateways` narrow the model (to fill NB partly). */
export function groups(
    owner: string,
    model: ClusterModel,
    hosts: GatewayHosts,
    nodes = model.nodeNetworks,
    gateways = model.gateways,
): { group: string; specs: RowSpec[] }[] {
    return instances({ ...model, nodeNetworks: nodes, gateways }, hosts).map((r) => {
        const kind = NB_KIND_LIST.find((k) => k.type === r.type)!;
        const inputs = { owner, ...r.inputs };
        return { group: kind.group(inputs), specs: kind.rows(inputs) };
    });
}
