// The host side of a VTEP gateway (role vtep): the VTEP database beside conf.db, the physical
// switch's bridge and ports, ovs-vtep and ovn-controller-vtep (./bash/vtep-*.sh); the logical
// switches and VLAN bindings are ../vtepBindings'.
import type { VtepModel } from "../../model/types";
import { BRIDGE_OWNER_KEY } from "../../model/names";
import { checked } from "../../values";
import { BOOT_BODIES } from "./boot";
import { afterOvsStart, type OvsStart } from "./ovs";
import { bashScript, type HostScript } from "./shell";

/** The external_ids value that marks the physical switch's bridge as this VTEP's. */
export const vtepBridgeOwner = (physicalSwitch: string) => `vtep/${physicalSwitch}`;

/** `ovs`: Open vSwitch's start, when no earlier command of the host (a NIC move) starts it. */
export function vtepScript(vtep: VtepModel, ovs?: OvsStart): HostScript {
    const host = checked("vtep.host", vtep.host, "nodeName");
    const field = (key: string) => `vteps[${host}].${key}`;
    const physicalSwitch = checked(field("physicalSwitch"), vtep.physicalSwitch, "ifname");
    const ports = vtep.ports.map((p, i) => checked(field(`ports[${i}]`), p, "ifname"));
    // The daemons' body (vtep-daemons.sh) reads the SB address in delete too.
    const common = {
        physical_switch: physicalSwitch,
        owner_tag: vtepBridgeOwner(physicalSwitch),
        owner_key: BRIDGE_OWNER_KEY,
        sb_address: checked(field("sbAddress"), vtep.sbAddress, "ovsdbRemote"),
    };
    const vars = {
        ...common,
        tunnel_ip: checked(field("tunnelIp"), vtep.tunnelIp, "ipv4"),
        datapath_type: checked(field("datapathType"), vtep.datapathType, "datapathType"),
        ports: ports.join("\n"),
    };
    const [createVars, createBodies] = afterOvsStart(ovs, vars, ["vtep-daemons", ...BOOT_BODIES, "vtep-create"]);
    return {
        create: bashScript(createVars, createBodies),
        delete: bashScript(common, ["vtep-daemons", ...BOOT_BODIES, "vtep-delete"]),
    };
}
