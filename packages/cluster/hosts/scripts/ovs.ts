// Open vSwitch daemons on every host (ovsdb-server + ovs-vswitchd), with or without systemd.
// No delete: Open vSwitch may carry the host's own traffic (a shared gateway NIC), and OVN's
// resources are undone by their own scripts; stopping it on destroy gains nothing.
import type { HostModel } from "../../model/types";
import { checked } from "./checked";
import { bashScript, type HostScript } from "./shell";

export function ovsStartScript(host: Pick<HostModel, "name" | "os" | "datapathType">): HostScript {
    checked("host.name", host.name, "nodeName");
    const os = checked(`hosts[${host.name}].os`, host.os, "osFamily");
    const vars = {
        ovs_unit: os === "debian" ? "openvswitch-switch" : "openvswitch",
        datapath_type: checked(`hosts[${host.name}].datapathType`, host.datapathType, "datapathType"),
    };
    return { create: bashScript(vars, ["ovs-start"]) };
}
