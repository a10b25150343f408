// IPsec on a chassis (ovnkube.ipsec): ovs-monitor-ipsec and its IKE daemon from the distribution's
// openvswitch-ipsec, with the chassis' certificate (docs/features.md#ipsec).
import type { HostModel } from "../../model/types";
import { checked } from "../../values";
import { bashScript, type HostScript } from "./shell";

/**
 * The IKE daemon each distribution's openvswitch-ipsec depends on and its unit starts: Debian's
 * `ovs-ctl --ike-daemon=strongswan start-ovs-ipsec`, Fedora's and RHEL's libreswan.
 */
export const IKE_DAEMON = { debian: "strongswan", rhel: "libreswan" } as const;
/** The unit of openvswitch-ipsec on both. */
export const IPSEC_UNIT = "openvswitch-ipsec";

/** The key, certificate and CA arrive on stdin (secrets `ipsec-*`). */
export function ipsecScript(host: HostModel): HostScript {
    const name = checked("host.name", host.name, "nodeName");
    if (!host.isChassis || !host.zone || !host.ipsec)
        throw new Error(`hosts: ${name} runs no IPsec (an interconnect zone with ovnkube.ipsec)`);
    const os = checked(`hosts[${name}].os`, host.os, "osFamily") as keyof typeof IKE_DAEMON;
    return {
        create: bashScript({ ike_daemon: IKE_DAEMON[os], ipsec_unit: IPSEC_UNIT }, ["secrets", "ipsec-create"]),
        delete: bashScript({ ipsec_unit: IPSEC_UNIT }, ["ipsec-delete"]),
    };
}
