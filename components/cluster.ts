// OvnKubernetesCluster: the one top component. It turns the cluster model into child components
// in the order things must happen on real machines:
//   packages → central, or per node its zone (interconnect) → chassis (needs the SB address) → NB cluster router
//   → per node: NB switch + management port host side
//   → per gateway: shared/dedicated NIC bridge → NB gateway router (needs system-id and NIC MAC) → flows
//   → ovnkube in Kubernetes.
import * as pulumi from "@pulumi/pulumi";
import type { OvnKubernetesClusterArgs } from "./clusterArgs";
import { clusterInputs } from "./program/clusterInputs";

export type { OvnKubernetesClusterArgs };
import { Central, Chassis, ScriptBundle, Zone } from "./hosts";
import { packagesScript } from "./hosts/scripts/packagesScript";
import { nicMovesOf } from "./hosts/nicMove";
import { TunnelTypeCheck } from "./compat/tunnelTypeCheck";
import type { ClusterModel, HostModel } from "./model/types";
import { centralHostOf, centralHostsOf, hostOf, type TopologyContext } from "./topology/context";
import { logConfigWarnings, sshPrivateKeyConfig } from "./program/readConfig";
import { kubernetesTarget } from "./program/kubernetesTarget";
import { nbConnection, sshConnection } from "./program/connections";
import { ChangeGuard } from "./guard/changeGuard";
import { DestroyGuard, ownedGroups, type DestroyGuardInputs } from "./guard/destroyGuard";

/**
 * ovn-kubernetes overlay networking on a set of hosts: OVS and OVN on every host, the Northbound
 * topology (Pulumi mode) or ovnkube in Kubernetes (ovnkube mode).
 */
export class OvnKubernetesCluster extends pulumi.ComponentResource {
    /** Each node's subnet, by node name. */
    readonly nodeSubnets: pulumi.Output<Record<string, string>>;
    /** Each node's cluster router port address, by node name. */
    readonly routerIps: pulumi.Output<Record<string, string>>;
    /** Each node's management port address, by node name. */
    readonly managementIps: pulumi.Output<Record<string, string>>;
    /** The Northbound database's address as ovn-nbctl takes it. */
    readonly nbAddress: pulumi.Output<string>;
    /** The Southbound database's address as ovn-controller takes it. */
    readonly sbAddress: pulumi.Output<string>;
    /** Each chassis' OVS system-id, by node name. */
    readonly systemIds: pulumi.Output<Record<string, string>>;
    /** Who writes the per-node topology: `pulumi` (Kubernetes disabled) or `ovnkube`. */
    readonly topologyWriter: pulumi.Output<string>;
    /** ovnkube mode: the API server the Kubernetes objects go to; empty in Pulumi mode. */
    readonly kubernetesServer: pulumi.Output<string>;

    constructor(name: string, args: OvnKubernetesClusterArgs, opts?: pulumi.ComponentResourceOptions) {
        // Validated before anything is registered: a bad setting stops here, named by its path.
        const { config, model, secrets } = clusterInputs(args);
        super("ovn-kubernetes:index:OvnKubernetesCluster", name, {}, opts);
        logConfigWarnings(config, this);
        const privateKey = secrets.sshPrivateKey!;
        const centralHost = model.central ? centralHostOf(model) : undefined;
        // The providers' SSH key, named by its config key: their state holds no key.
        const nbKey = { privateKeyConfig: args.sshPrivateKeyConfig ?? sshPrivateKeyConfig() };
        const owner = args.owner ?? `${pulumi.getProject()}/${pulumi.getStack()}`;
        // Interconnect: each node's own NB, on its host; else the central's (every member's).
        const nbOf = (node: string) => (centralHost ? nbConnection(centralHost, nbKey, centralHostsOf(model)) : nbConnection(hostOf(model, node), nbKey));
        const guardArgs: DestroyGuardInputs = {
            nb: model.writer === "pulumi" && centralHost ? nbConnection(centralHost, nbKey) : undefined,
            owner,
            groups: ownedGroups(model),
            hosts: model.hosts.map((h) => ({ name: h.name, ssh: h.ssh, roles: h.roles })),
            centrals: centralHostsOf(model).map((h) => h.name),
            ...(model.writer === "ovnkube"
                ? { ovnkube: { version: model.kube.version, architecture: model.architecture, gatewayMode: model.kube.gatewayMode }, ovnkubeNodes: model.kube.nodes.map((n) => ({ name: n.name, nb: nbOf(n.name) })) }
                : {}),
            ...nbKey,
        };
        // Each host's package step, generated (and so validated) before anything is registered.
        const packageSteps = new Map(model.packages.skip ? [] : model.hosts.map((h) => [h.name, packagesScript(h, model.packages).create]));
        // First, and everything waits for it (through the hosts' script bundles): an `up` that renames a
        // node, or removes one that still has pods, is refused before anything is touched.
        const changeGuard = new ChangeGuard(`${name}-change-guard`, guardArgs, { parent: this });
        const child = { parent: this, dependsOn: [changeGuard] };

        // Pulumi mode writes the chassis' encap type: a running cluster's cannot change
        // (compat/tunnelType.ts). Judged before every host's bundle, whose tunnel plan names the
        // encap type: an up it refuses takes no step. Its login to the central checks the pinned
        // key before authenticating, as the bundle's check does.
        const chassisHosts = model.hosts.filter((h) => h.chassis);
        const tunnelIps = () => Object.fromEntries(chassisHosts.map((h) => [h.name, h.chassis!.encapIp]));
        const encapGate =
            model.writer === "pulumi" && centralHost
                ? [new TunnelTypeCheck(`${name}-tunnel-type`, { ssh: centralHost.ssh, ...nbKey, encapType: model.encapType, tunnelIps: tunnelIps() }, child)]
                : [];

        // Every host's gate: its script bundle, whose check refuses a host that does not present its
        // pinned key, a chassis whose tunnel device cannot carry the overlay MTU, a NIC about to
        // move that the distribution still configures, or databases too old for ovnkube, before any
        // command reaches it; it then installs the host's packages; every command of the host runs
        // from it (the connection depends on it: every command is created after it and deleted
        // before it).
        const bundles = new Map<string, ScriptBundle>();
        const connection = new Map<string, pulumi.Output<ReturnType<typeof sshConnection>>>();
        for (const host of model.hosts) {
            const tunnel = host.chassis ? { tunnel: { node: host.name, mtu: model.mtu, encapType: model.encapType, tunnelIp: host.chassis.encapIp } } : {};
            const moves = nicMovesOf(host, model.gateways);
            const nics = moves.length > 0 ? { nics: moves } : {};
            const packages = packageSteps.has(host.name) ? { packages: packageSteps.get(host.name) } : {};
            // ovnkube refuses databases older than its models: found out before any database is touched.
            const servesOvnkube = model.writer === "ovnkube" && (host.zone !== undefined || host.name === centralHost?.name);
            const schemas = servesOvnkube ? { ovnkubeDatabases: { node: host.name, version: model.kube.version } } : {};
            const bundle = new ScriptBundle(`${name}-${host.name}-scripts`, { ssh: host.ssh, ...nbKey, ...tunnel, ...nics, ...packages, ...schemas }, { parent: this, dependsOn: [changeGuard, ...encapGate] });
            bundles.set(host.name, bundle);
            connection.set(host.name, pulumi.secret(pulumi.all([privateKey, bundle.digest]).apply(([key]) => sshConnection(host, key))));
        }
        // What a host's first resources wait for: its gate, with its packages installed.
        const hostReady = (host: HostModel): pulumi.Resource[] => [bundles.get(host.name)!];

        const ssl = model.central?.ssl
            ? { privateKey: secrets.ovnSslPrivateKey!, certificate: secrets.ovnSslCertificate!, caCertificate: secrets.ovnSslCaCertificate! }
            : undefined;
        // Where each chassis' databases are: the central(s), or (interconnect) its own zone.
        const databases = new Map<string, pulumi.Resource>();
        let central: Central | undefined;
        if (model.central && centralHost) {
            const centralReady = model.hosts.filter((h) => h.isCentral).flatMap(hostReady);
            central = new Central(
                `${name}-central`,
                {
                    central: model.central,
                    datapathType: centralHost.datapathType,
                    os: centralHost.os,
                    connection: connection.get(centralHost.name)!,
                    members: (model.central.cluster?.members.slice(1) ?? []).map((m) => ({
                        host: m.host,
                        connection: connection.get(m.host)!,
                        datapathType: model.hosts.find((h) => h.name === m.host)!.datapathType,
                    })),
                    ssl,
                },
                { parent: this, dependsOn: centralReady },
            );
            for (const host of model.hosts) databases.set(host.name, central);
        }
        for (const host of model.hosts.filter((h) => h.zone))
            databases.set(
                host.name,
                new Zone(`${name}-${host.name}-zone`, { zone: host.zone!, connection: connection.get(host.name)!, os: host.os }, { parent: this, dependsOn: hostReady(host) }).databases,
            );

        const chassis = new Map<string, Chassis>();
        for (const host of model.hosts.filter((h) => h.isChassis)) {
            const c = new Chassis(
                `${name}-${host.name}-chassis`,
                {
                    host,
                    nbAddress: model.nbAddress,
                    sbAddress: model.sbAddress,
                    connection: connection.get(host.name)!,
                    k8sApiToken: model.kube.secureApi ? secrets.k8sApiToken : undefined,
                    k8sCaCertificate: model.kube.secureApi ? secrets.k8sCaCertificate : undefined,
                    ssl,
                },
                { parent: this, dependsOn: [...hostReady(host), databases.get(host.name)!] },
            );
            chassis.set(host.name, c);
        }

        const topology: TopologyContext = {
            name,
            parent: this,
            model,
            owner,
            connection: (h) => connection.get(h)!,
            ...nbKey,
            chassis,
            databases: [...new Set(databases.values())],
            databasesOf: (h) => databases.get(h)!,
            bundles,
            nb: nbOf,
        };
        // Each mode's writers load only when the stack uses that mode: ovnkube mode pulls in
        // @pulumi/kubernetes, whose loading alone costs every run about a second.
        if (model.writer === "pulumi") (require("./topology/pulumi") as typeof import("./topology/pulumi")).pulumiTopology(topology);
        else (require("./topology/ovnkube") as typeof import("./topology/ovnkube")).ovnkubeTopology(topology, { kubeconfig: secrets.kubeconfig });
        // Last, depending on all of the above (this component stands for its children): a destroy
        // deletes it first, and it refuses while anything would stop the destroy halfway.
        new DestroyGuard(`${name}-destroy-guard`, guardArgs, { parent: this, dependsOn: [this] });

        const byNode = (f: (n: ClusterModel["nodeNetworks"][number]) => string) => Object.fromEntries(model.nodeNetworks.map((n) => [n.node, f(n)]));
        this.nodeSubnets = pulumi.output(byNode((n) => n.subnet));
        this.routerIps = pulumi.output(byNode((n) => n.router.ip));
        this.managementIps = pulumi.output(byNode((n) => n.mgmt.ip));
        this.nbAddress = pulumi.output(model.nbAddress);
        this.sbAddress = pulumi.output(model.sbAddress);
        this.systemIds = pulumi.all(Object.fromEntries([...chassis].map(([n, c]) => [n, c.systemId])));
        this.topologyWriter = pulumi.output(model.writer);
        this.kubernetesServer = model.writer === "ovnkube" ? kubernetesTarget(secrets.kubeconfig) : pulumi.output("");
        // Said in the preview itself, before anything is written to that cluster.
        if (model.writer === "ovnkube") this.kubernetesServer.apply((server) => pulumi.log.info(`Kubernetes objects go to ${server}`, this));
        this.registerOutputs({
            topologyWriter: this.topologyWriter,
            kubernetesServer: this.kubernetesServer,
            nodeSubnets: this.nodeSubnets,
            routerIps: this.routerIps,
            managementIps: this.managementIps,
            nbAddress: this.nbAddress,
            sbAddress: this.sbAddress,
            systemIds: this.systemIds,
        });
    }
}
