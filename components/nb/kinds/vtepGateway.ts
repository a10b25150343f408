// The VtepGateway kind: per VTEP gateway, on each logical switch its bindings join, the port
// ovn-controller-vtep binds the VTEP's logical switch through (ovn-architecture.7
// "Life Cycle of a VTEP gateway"): type vtep, addresses unknown (the physical servers' MACs are
// not known to OVN), options naming the physical switch and the VTEP's logical switch.
// Input `vtep`: the NB part of the model's VtepModel.
import { rowSpec, type RowSpec } from "../core/rows";
import { nodeGroup, vtepGroup } from "../core/tags";
import { defineKind } from "./common";
import { list, object, ovnName, text, type ValueOf } from "./fields";
import { NODE_ROWS } from "./nodeSwitch";

export const VTEP_GATEWAY_INPUTS = {
    vtep: object({
        host: text("nodeName", { replace: true }),
        physicalSwitch: text("ifname"),
        switchPorts: list({ switchName: text("nodeName"), port: text("ovnName") }),
    }),
};
export type VtepGatewayNb = ValueOf<typeof VTEP_GATEWAY_INPUTS>["vtep"];

export function vtepGatewayRows(owner: string, v: VtepGatewayNb): RowSpec[] {
    const group = vtepGroup(v.host);
    return v.switchPorts.map((s) =>
        rowSpec(owner, group, `port-${s.switchName}`, "Logical_Switch_Port", {
            columns: { name: s.port, type: "vtep", addresses: ["unknown"] },
            // The VTEP database's logical switch is named after the OVN switch it joins.
            maps: { options: { "vtep-physical-switch": v.physicalSwitch, "vtep-logical-switch": s.switchName } },
            parent: { group: nodeGroup(s.switchName), key: NODE_ROWS.switch, table: "Logical_Switch" },
        }),
    );
}

export const vtepGatewayKind = defineKind({
    type: "VtepGateway",
    inputs: VTEP_GATEWAY_INPUTS,
    tables: ["Logical_Switch_Port"],
    group: (inputs) => vtepGroup(inputs.vtep.host),
    rows: (owner, inputs) => vtepGatewayRows(owner, inputs.vtep),
    instances: (model) => model.vteps.map((v) => ({ name: v.host, inputs: { vtep: v }, placeholders: {} })),
    // ovnkube mode has no VTEP gateways (../../plan/checks/vtep).
    ovnkube: undefined,
});
