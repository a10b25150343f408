// The desired Northbound state of a stack, as the NB resources will apply it: every group's rows
// (the same kinds and row builders the providers use, from the registry), for review and for
// air-gapped use. Values only known at apply time (a chassis' system-id, a gateway NIC's MAC) are
// shown as placeholders.
import { NB_KIND_LIST } from "../nb/kinds";
import { normalizeCommon } from "../nb/kinds/common";
import type { RowSpec } from "../nb/core/rows";
import type { ClusterModel } from "../model/types";

export interface NbGroup {
    /** The resource that owns these rows: ClusterRouter, NodeSwitch or GatewayRouter. */
    resource: string;
    name: string;
    rows: RowSpec[];
}

export function desiredNorthbound(model: ClusterModel, owner: string): NbGroup[] {
    return NB_KIND_LIST.flatMap((kind) =>
        kind.instances(model).map((instance) => {
            const inputs = { ...normalizeCommon({ owner }), ...kind.normalize({ ...instance.inputs, ...instance.placeholders }) };
            return { resource: kind.type, name: instance.name, rows: kind.rows(inputs) };
        }),
    );
}
