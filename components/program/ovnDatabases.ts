// Where the OVN databases run: the central (with its cluster members), or with interconnect each
// node's own zone. Every chassis uses the databases of its host's entry.
import type * as pulumi from "@pulumi/pulumi";
import { Central, Zone, type OvsdbSsl } from "../hosts";
import type { ClusterModel } from "../model/types";
import type { ClusterScope } from "./clusterScope";
import type { HostGates } from "./hostGates";
import type { Secrets } from "./readConfig";

/** The OVN databases' TLS material, when the central serves ssl. */
export function ovnSsl(model: ClusterModel, secrets: Secrets): OvsdbSsl | undefined {
    return model.central?.ssl
        ? { privateKey: secrets.ovnSslPrivateKey!, certificate: secrets.ovnSslCertificate!, caCertificate: secrets.ovnSslCaCertificate! }
        : undefined;
}

/** The central's or each zone's databases, by the host whose chassis uses them. */
export function ovnDatabases(
    { name, parent, model, centralHost }: ClusterScope,
    gates: HostGates,
    ssl: OvsdbSsl | undefined,
): Map<string, pulumi.Resource> {
    const databases = new Map<string, pulumi.Resource>();
    if (model.central && centralHost && model.ovnSource === "image") {
        // The centrals' databases run in ovnkube-db pods: each central's host part only undoes their files.
        const records = model.hosts
            .filter((h) => h.isCentral)
            .map(
                (h) =>
                    new Zone(
                        `${name}-${h.name}-central`,
                        { zone: h.name, connection: gates.connection(h.name), os: h.os, source: model.ovnSource },
                        { parent, dependsOn: gates.ready(h) },
                    ).databases,
            );
        for (const host of model.hosts) databases.set(host.name, records[0]);
    } else if (model.central && centralHost) {
        const centralReady = model.hosts.filter((h) => h.isCentral).flatMap(gates.ready);
        const central = new Central(
            `${name}-central`,
            {
                central: model.central,
                datapathType: centralHost.datapathType,
                os: centralHost.os,
                connection: gates.connection(centralHost.name),
                members: (model.central.cluster?.members.slice(1) ?? []).map((m) => ({
                    host: m.host,
                    connection: gates.connection(m.host),
                    datapathType: model.hosts.find((h) => h.name === m.host)!.datapathType,
                })),
                ssl,
            },
            { parent, dependsOn: centralReady },
        );
        for (const host of model.hosts) databases.set(host.name, central);
    }
    for (const host of model.hosts.filter((h) => h.zone))
        databases.set(
            host.name,
            new Zone(
                `${name}-${host.name}-zone`,
                { zone: host.zone!, connection: gates.connection(host.name), os: host.os, source: model.ovnSource },
                { parent, dependsOn: gates.ready(host) },
            ).databases,
        );
    return databases;
}
