// Every chassis: OVS and ovn-controller on each host with that role, once its gate has passed and
// the databases it uses run.
import type * as pulumi from "@pulumi/pulumi";
import { Chassis, ipsecOnChassis, type OvsdbSsl } from "../hosts";
import type { ClusterScope } from "./clusterScope";
import type { HostGates } from "./hostGates";
import type { Secrets } from "./readConfig";

/** The chassis, by host name. */
export function chassisOf(
    { name, parent, model }: ClusterScope,
    gates: HostGates,
    databases: ReadonlyMap<string, pulumi.Resource>,
    secrets: Secrets,
    ssl: OvsdbSsl | undefined,
): Map<string, Chassis> {
    const chassis = new Map<string, Chassis>();
    for (const host of model.hosts.filter((h) => h.isChassis)) {
        const c = new Chassis(
            `${name}-${host.name}-chassis`,
            {
                host,
                nbAddress: model.nbAddress,
                sbAddress: model.sbAddress,
                connection: gates.connection(host.name),
                k8sApiToken: model.kube.secureApi ? secrets.k8sApiToken : undefined,
                k8sCaCertificate: model.kube.secureApi ? secrets.k8sCaCertificate : undefined,
                ssl,
            },
            { parent, dependsOn: [...gates.ready(host), databases.get(host.name)!] },
        );
        chassis.set(host.name, c);
    }
    return chassis;
}

/** ovnkube.ipsec: the PKI and ovs-monitor-ipsec on every chassis that has it, after its ovn-controller. */
export function ipsecOf({ name, parent, model }: ClusterScope, gates: HostGates, chassis: ReadonlyMap<string, Chassis>): void {
    const hosts = model.hosts.filter((h) => h.ipsec && h.isChassis);
    ipsecOnChassis(
        name,
        parent,
        hosts.map((host) => ({ host, chassis: chassis.get(host.name)!, connection: gates.connection(host.name) })),
    );
}
