// The registry of NB kinds: the one list the resource classes, render, the destroy guard and the
// benchmark take the kinds from. Order is apply order: the cluster router first (the others
// refer to its rows); a VTEP's ports after the node switches they sit on.
import { clusterRouterKind } from "./clusterRouter";
import type { NbKind } from "./common";
import { gatewayRouterKind } from "./gatewayRouter";
import { nodeSwitchKind } from "./nodeSwitch";
import { vtepGatewayKind } from "./vtepGateway";

export const NB_KINDS = {
    ClusterRouter: clusterRouterKind,
    NodeSwitch: nodeSwitchKind,
    GatewayRouter: gatewayRouterKind,
    VtepGateway: vtepGatewayKind,
} as const;
export type NbKindName = keyof typeof NB_KINDS;
export const NB_KIND_LIST: readonly NbKind[] = Object.values(NB_KINDS);

export function kindOf(type: string): NbKind {
    const kind = NB_KIND_LIST.find((k) => k.type === type);
    if (!kind) throw new Error(`unknown NB resource type ${JSON.stringify(type)} (known: ${NB_KIND_LIST.map((k) => k.type).join(", ")})`);
    return kind;
}
