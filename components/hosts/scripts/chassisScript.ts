// A chassis: the local Open_vSwitch row's OVN settings and ovn-controller.
import type { HostModel } from "../../model/types";
import { checked } from "../../values";
import { afterOvsStart, type OvsStart } from "./ovs";
import { bashScript, lastStdoutLine, type HostScript } from "./shell";

export interface ChassisAddresses {
    /** ovn-nb, e.g. tcp:10.0.0.1:6641 */
    nbAddress: string;
    /** ovn-remote, e.g. tcp:10.0.0.1:6642 */
    sbAddress: string;
}

/** The system-id is the last stdout line of the create/update script. */
export function parseSystemId(stdout: string): string {
    return checked("chassis script stdout (system-id)", lastStdoutLine(stdout), "ovnName");
}

/** `ovs`: Open vSwitch is started first, in the same command (the chassis' first). */
export function chassisScript(host: HostModel, addresses: ChassisAddresses, ovs?: OvsStart): HostScript {
    const name = checked("host.name", host.name, "nodeName");
    const field = (key: string) => `hosts[${name}].${key}`;
    const chassis = host.chassis;
    if (!host.isChassis || !chassis) throw new Error(`hosts: ${field("chassis")} is required: ${name} is not a chassis`);
    const os = checked(field("os"), host.os, "osFamily");
    const vars = {
        writer: checked(field("chassis.writer"), chassis.writer, "topologyWriter"),
        // Debian's ovn-host unit runs ovn-controller; RHEL names the unit after the daemon.
        controller_unit: os === "debian" ? "ovn-host" : "ovn-controller",
        ovn_remote: checked("sbAddress", addresses.sbAddress, "ovsdbRemote"),
        ovn_nb: checked("nbAddress", addresses.nbAddress, "ovsdbRemote"),
        encap_ip: checked(field("chassis.encapIp"), chassis.encapIp, "ip"),
        encap_type: checked(field("chassis.encapType"), chassis.encapType, "encapTypes"),
        k8s_api_server: checked(field("chassis.k8sApiServer"), chassis.k8sApiServer, "k8sApiServer"),
        bridge_mappings:
            chassis.bridgeMappings === undefined ? "" : checked(field("chassis.bridgeMappings"), chassis.bridgeMappings, "bridgeMappings"),
        datapath_type: checked(field("datapathType"), host.datapathType, "datapathType"),
        controller: checked(field("chassis.controller"), chassis.controller, "ovnSource"),
    };
    return {
        create: bashScript(...afterOvsStart(ovs, vars, ["ovn-ctl", "secrets", "chassis-create"])),
        delete: bashScript({ controller_unit: vars.controller_unit }, ["ovn-ctl", "chassis-delete"]),
    };
}

/** Whether the chassis needs the k8s token and CA certificate on stdin (Pulumi mode's k8s-api-* keys). */
export function chassisNeedsK8sSecrets(host: HostModel): boolean {
    return host.chassis?.writer === "pulumi" && host.chassis.k8sApiServer.startsWith("https://");
}

/** Whether the chassis needs the SSL client key, certificate and CA on stdin. */
export function chassisNeedsSsl(addresses: ChassisAddresses): boolean {
    return addresses.sbAddress.startsWith("ssl:");
}
