// OvnKubernetesCluster: the one top component. It turns the cluster model into child components
// in the order things must happen on real machines:
//   packages → central, or per node its zone (interconnect) → chassis (needs the SB address), then IPsec
//   on it (ovnkube.ipsec) → NB cluster router
//   → per node: NB switch + management port host side
//   → per gateway: shared/dedicated NIC bridge → NB gateway router (needs system-id and NIC MAC) → flows
//   → ovnkube in Kubernetes.
import * as pulumi from "@pulumi/pulumi";
import type { OvnKubernetesClusterArgs } from "./program/clusterArgs";
import { clusterInputs } from "./program/clusterInputs";

export type { OvnKubernetesClusterArgs };
import { kubeconfigConfig, logConfigWarnings } from "./program/readConfig";
import { clusterScope } from "./program/clusterScope";
import { guardInputs } from "./program/guardInputs";
import { encapTypeGate, hostGates, packageSteps } from "./program/hostGates";
import { ovnDatabases, ovnSsl } from "./program/ovnDatabases";
import { chassisOf, ipsecOf } from "./program/chassis";
import { writeTopology } from "./program/writeTopology";
import { clusterOutputs } from "./program/clusterOutputs";
import { ChangeGuard } from "./guard/changeGuard";
import { ClusterIdentityCheck } from "./guard/clusterIdentityCheck";
import { DestroyGuard } from "./guard/destroyGuard";

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
        const scope = clusterScope(name, this, args, model);
        const guards = guardInputs(scope);
        const packages = packageSteps(model);
        // First, and everything waits for it (through the hosts' script bundles): an `up` that renames a
        // node, or removes one that still has pods, is refused before anything is touched.
        // Before it, ovnkube mode with the stack's kubeconfig: apiServer.url must be the cluster the objects go to.
        const identity =
            model.writer === "ovnkube" && secrets.kubeconfig !== undefined
                ? [
                      new ClusterIdentityCheck(
                          `${name}-cluster-identity`,
                          { apiServerUrl: config.apiServer.url, kubeconfigConfig: kubeconfigConfig(scope.nbKey.privateKeyConfig) },
                          { parent: this },
                      ),
                  ]
                : [];
        const changeGuard = new ChangeGuard(`${name}-change-guard`, guards, { parent: this, dependsOn: identity });
        const gates = hostGates(scope, secrets.sshPrivateKey!, packages, [changeGuard, ...encapTypeGate(scope, changeGuard)]);
        const ssl = ovnSsl(model, secrets);
        const databases = ovnDatabases(scope, gates, ssl);
        const chassis = chassisOf(scope, gates, databases, secrets, ssl);
        ipsecOf(scope, gates, chassis);
        writeTopology(scope, gates, chassis, databases, secrets.kubeconfig);
        // Last, depending on all of the above (this component stands for its children): a destroy
        // deletes it first, and it refuses while anything would stop the destroy halfway.
        new DestroyGuard(`${name}-destroy-guard`, guards, { parent: this, dependsOn: [this] });

        const outputs = clusterOutputs(model, chassis, secrets.kubeconfig);
        this.topologyWriter = outputs.topologyWriter;
        this.kubernetesServer = outputs.kubernetesServer;
        this.nodeSubnets = outputs.nodeSubnets;
        this.routerIps = outputs.routerIps;
        this.managementIps = outputs.managementIps;
        this.nbAddress = outputs.nbAddress;
        this.sbAddress = outputs.sbAddress;
        this.systemIds = outputs.systemIds;
        // Said in the preview itself, before anything is written to that cluster.
        if (model.writer === "ovnkube")
            this.kubernetesServer.apply((server) => pulumi.log.info(`Kubernetes objects go to ${server}`, this));
        this.registerOutputs(outputs);
    }
}
