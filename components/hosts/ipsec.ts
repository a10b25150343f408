// IPsec on the chassis (ovnkube.ipsec): the PKI, made once for the cluster, and on each chassis
// ovs-monitor-ipsec with its certificate, started once ovn-controller runs and its system-id (the
// certificate's CN) is known.
import type * as pulumi from "@pulumi/pulumi";
import type { remote } from "@pulumi/command";
import type { HostModel } from "../model/types";
import { hostCommand, secretStdin, type HostConnection } from "./command";
import type { Chassis } from "./chassis";
import { IpsecCertificates } from "./ipsecCertificates";
import { ipsecScript } from "./scripts/ipsecScript";

export interface IpsecHost {
    host: HostModel;
    chassis: Chassis;
    connection: HostConnection;
}

/** `<name>-ipsec-certificates`, and `<name>-<node>-ipsec` per host; nothing when no host has IPsec. */
export function ipsecOnChassis(name: string, parent: pulumi.Resource, hosts: readonly IpsecHost[]): remote.Command[] {
    if (hosts.length === 0) return [];
    // Generated (and so validated) before any resource exists: bad input fails the preview.
    const scripts = hosts.map((h) => ipsecScript(h.host));
    const pki = new IpsecCertificates(
        `${name}-ipsec-certificates`,
        { systemIds: Object.fromEntries(hosts.map((h) => [h.host.name, h.chassis.systemId])) },
        { parent },
    );
    return hosts.map((h, i) =>
        hostCommand(
            parent,
            `${name}-${h.host.name}-ipsec`,
            scripts[i],
            {
                connection: h.connection,
                stdin: secretStdin({
                    "ipsec-private-key": pki.privateKeys.apply((k) => k[h.host.name]),
                    "ipsec-certificate": pki.certificates.apply((c) => c[h.host.name]),
                    "ipsec-ca-certificate": pki.caCertificate,
                }),
            },
            { dependsOn: [h.chassis.controller, pki] },
        ),
    );
}
