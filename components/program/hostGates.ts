// Every host's gate: its script bundle, whose check refuses a host that does not present its pinned
// key, a chassis whose tunnel device cannot carry the overlay MTU, a NIC about to move that the
// distribution still configures, a host that is not what the stack says (its distribution family,
// repository, shared gateway address), or databases too old for ovnkube, before any command reaches it;
// it then installs the host's packages; every command of the host runs from it (the connection
// depends on it: every command is created after it and deleted before it).
import * as pulumi from "@pulumi/pulumi";
import { TunnelTypeCheck } from "../compat/tunnelTypeCheck";
import { ScriptBundle, type HostConnection } from "../hosts";
import { nicMovesOf } from "../hosts/nicMove";
import type { HostFactsPlan } from "../hosts/hostFacts";
import { GatewayMode } from "../config/types";
import { packagesScript } from "../hosts/scripts/packagesScript";
import type { ClusterModel, HostModel } from "../model/types";
import type { ClusterScope } from "./clusterScope";
import { sshConnection } from "./connections";

type PackageSteps = ReadonlyMap<string, ReturnType<typeof packagesScript>["create"]>;

export interface HostGates {
    /** Each host's script bundle, by host name. */
    bundles: Map<string, ScriptBundle>;
    /** Each host's command connection (secret: it carries the key), which waits for its bundle. */
    connection(host: string): HostConnection;
    /** What a host's first resources wait for: its gate, with its packages installed. */
    ready(host: HostModel): pulumi.Resource[];
}

/** Each host's package step, generated (and so validated) before anything is registered. */
export function packageSteps(model: ClusterModel): PackageSteps {
    return new Map(model.packages.skip ? [] : model.hosts.map((h) => [h.name, packagesScript(h, model.packages).create]));
}

/**
 * Pulumi mode writes the chassis' encap type: a running cluster's cannot change
 * (compat/tunnelType.ts). Judged before every host's bundle, whose tunnel plan names the encap
 * type: an up it refuses takes no step. Its login to the central checks the pinned key before
 * authenticating, as the bundle's check does.
 */
export function encapTypeGate({ name, parent, model, nbKey, centralHost }: ClusterScope, changeGuard: pulumi.Resource): pulumi.Resource[] {
    if (model.writer !== "pulumi" || !centralHost) return [];
    const tunnelIps = Object.fromEntries(model.hosts.filter((h) => h.chassis).map((h) => [h.name, h.chassis!.encapIp]));
    return [
        new TunnelTypeCheck(
            `${name}-tunnel-type`,
            { ssh: centralHost.ssh, ...nbKey, encapType: model.encapType, tunnelIps },
            { parent, dependsOn: [changeGuard] },
        ),
    ];
}

/**
 * What the host's facts are judged against: the family and repository of its package step (none
 * when the hosts bring their own packages) and its shared gateway's address; undefined when nothing.
 */
export function hostFactsPlan(host: HostModel, model: ClusterModel): HostFactsPlan | undefined {
    const gateway = model.gateways.find((g) => g.node === host.name && g.mode === GatewayMode.shared);
    if (model.packages.skip && !gateway) return undefined;
    return {
        node: host.name,
        ...(model.packages.skip
            ? {}
            : { packages: { os: host.os, ...(model.packages.repository ? { repository: model.packages.repository.name } : {}) } }),
        ...(gateway ? { gateway: { interface: gateway.interface, bridge: gateway.bridge, physicalIp: gateway.physical.cidr } } : {}),
    };
}

/** One script bundle per host, each after `dependsOn`, and the connection every command of the host uses. */
export function hostGates(
    { name, parent, model, nbKey, centralHost }: ClusterScope,
    privateKey: pulumi.Output<string>,
    packages: PackageSteps,
    dependsOn: pulumi.Resource[],
): HostGates {
    const bundles = new Map<string, ScriptBundle>();
    const connection = new Map<string, pulumi.Output<ReturnType<typeof sshConnection>>>();
    const kubeNodes = new Set(model.writer === "ovnkube" ? model.kube.nodes.map((n) => n.name) : []);
    for (const host of model.hosts) {
        const tunnel = host.chassis
            ? { tunnel: { node: host.name, mtu: model.mtu, encapType: model.encapType, tunnelIp: host.chassis.encapIp } }
            : {};
        const moves = nicMovesOf(host, model.gateways);
        const nics = moves.length > 0 ? { nics: moves } : {};
        const steps = packages.has(host.name) ? { packages: packages.get(host.name) } : {};
        // ovnkube refuses databases older than its models: found out before any database is touched.
        const servesOvnkube =
            model.writer === "ovnkube" && model.ovnSource === "packages" && (host.zone !== undefined || host.name === centralHost?.name);
        const schemas = servesOvnkube ? { ovnkubeDatabases: { node: host.name, version: model.kube.version } } : {};
        const plan = hostFactsPlan(host, model);
        const facts = plan ? { hostFacts: plan } : {};
        // ovnkube-node with user-defined networks exits on a host without systemd: refused before it runs there.
        const udn = kubeNodes.has(host.name) && model.kube.features.networkSegmentation;
        const udnHost = udn ? { udnHost: { node: host.name } } : {};
        // The image's ovn-controller drives the host's Open vSwitch: one too old for it is refused first.
        const imageOvn = kubeNodes.has(host.name) ? model.imageOvn : undefined;
        const imageOvs = imageOvn ? { imageOvs: { node: host.name, ovn: imageOvn.version, minimumOvs: imageOvn.minimumOvs } } : {};
        const bundle = new ScriptBundle(
            `${name}-${host.name}-scripts`,
            { ssh: host.ssh, ...nbKey, ...tunnel, ...nics, ...steps, ...schemas, ...facts, ...udnHost, ...imageOvs },
            { parent, dependsOn },
        );
        bundles.set(host.name, bundle);
        connection.set(host.name, pulumi.secret(pulumi.all([privateKey, bundle.digest]).apply(([key]) => sshConnection(host, key))));
    }
    return { bundles, connection: (host) => connection.get(host)!, ready: (host) => [bundles.get(host.name)!] };
}
