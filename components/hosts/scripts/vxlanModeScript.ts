// NB_Global options:vxlan_mode on the central, for a stack with VTEP gateways (./bash/vxlan-mode-*.sh).
import { bashScript, type HostScript } from "./shell";

export function vxlanModeScript(): HostScript {
    return { create: bashScript({}, ["vxlan-mode-create"]), delete: bashScript({}, ["vxlan-mode-delete"]) };
}
