// Ovnkube: ovn-kubernetes' objects in the cluster, created from the pure manifests (./manifests.ts)
// and the release's CRDs (./crds.ts) with @pulumi/kubernetes. The component adds only what Pulumi
// needs: which provider talks to the cluster, the order of creation, and outputs.
import * as k8s from "@pulumi/kubernetes";
import * as pulumi from "@pulumi/pulumi";
import type { KubeModel } from "../model/types";
import { kubeManifests, type KubeManifests } from "./manifests";
import { loadCrds } from "./crds";
import { webhookConfigurations, webhookSecret } from "./identity";
import { WebhookCertificate } from "./webhookCertificate";
import { asPulumiNodePatch } from "./nodeAnnotations";

export interface OvnkubeArgs {
    /** The Kubernetes part of the cluster model. */
    model: KubeModel;
    /**
     * Kubeconfig of the target cluster. Given, it drives an explicit provider and is kept secret
     * whether or not the caller marked it so; absent, the ambient provider (or the one passed in
     * `opts`) is used.
     */
    kubeconfig?: pulumi.Input<string>;
}

/** Child resource names: `<component>-control-plane`, `<component>-node`, `<component>-node-<group suffix>`. */
export const daemonSetResourceName = (component: string, daemonSet: string) => `${component}-${daemonSet.replace(/^ovnkube-/, "")}`;

export const OVNKUBE_TYPE = "ovn-kubernetes:kubernetes:Ovnkube";

export class Ovnkube extends pulumi.ComponentResource {
    /** Namespace holding ovnkube's namespaced objects. */
    public readonly namespace: pulumi.Output<string>;
    /** Names of the DaemonSets, as `kubectl -n <namespace> rollout status ds/<name>` takes them. */
    public readonly controlPlaneDaemonSet: pulumi.Output<string>;
    public readonly nodeDaemonSets: pulumi.Output<string[]>;
    /** Per node, the annotations the plan put on its Node (node-subnets, node-id). */
    public readonly nodePlan: pulumi.Output<Record<string, Record<string, string>>>;
    /** Names of the release's CustomResourceDefinitions. */
    public readonly crds: pulumi.Output<string[]>;
    /** The explicit provider built from `kubeconfig`, if one was given. */
    public readonly provider?: k8s.Provider;
    /** The DaemonSets, created after everything else of the component. */
    public readonly workloads: pulumi.Resource[];

    constructor(name: string, args: OvnkubeArgs, opts?: pulumi.ComponentResourceOptions) {
        // Built first: an invalid model throws here, before anything is registered.
        const m = kubeManifests(args.model);
        // No inputs recorded: the model would cost the checkpoint about 1 KB per node, twice, and its
        // objects hold it already; a kubeconfig passed as a plain string would land there in clear text.
        super(OVNKUBE_TYPE, name, {}, opts);

        if (args.kubeconfig !== undefined) {
            // upsertExistingObjects: an up killed after the API server made an object leaves a pending
            // create, which the next up runs again; from pulumi-kubernetes 4.29.0 that create is
            // refused as AlreadyExists otherwise. Every object here is the stack's own.
            this.provider = new k8s.Provider(
                `${name}-provider`,
                { kubeconfig: pulumi.secret(args.kubeconfig), upsertExistingObjects: true },
                { parent: this },
            );
        }
        const child = (dependsOn: pulumi.Input<pulumi.Input<pulumi.Resource>[]> = []): pulumi.CustomResourceOptions => ({
            parent: this,
            provider: this.provider,
            dependsOn,
        });

        // The release's CRDs, read from their URLs: ovnkube's informers need them before it starts.
        const crds = pulumi
            .output(loadCrds(args.model.crdUrls))
            .apply((objects) =>
                objects.map(
                    (crd) =>
                        new k8s.apiextensions.v1.CustomResourceDefinition(
                            `${name}-crd-${crd.metadata.name}`,
                            crd as unknown as k8s.apiextensions.v1.CustomResourceDefinitionArgs,
                            child(),
                        ),
                ),
            );

        // The plan goes onto the Nodes before any ovnkube starts: the cluster manager reserves
        // node-ids only for nodes that carry one when it starts, and allocates subnets for nodes
        // that carry none.
        const plans = m.nodePlans.map(
            (patch) => new k8s.core.v1.NodePatch(`${name}-${patch.metadata.name}-plan`, asPulumiNodePatch(patch), child()),
        );

        const ns = new k8s.core.v1.Namespace(`${name}-namespace`, m.namespace, child());
        const hostNetworkNs = new k8s.core.v1.Namespace(`${name}-host-network-namespace`, m.hostNetworkNamespace, child());
        const config = new k8s.core.v1.ConfigMap(`${name}-config`, m.configMap, child([ns]));
        const roles = Object.fromEntries(
            Object.entries(m.roles).map(([role, r]) => {
                const sa = new k8s.core.v1.ServiceAccount(`${name}-${role}-service-account`, r.serviceAccount, child([ns]));
                const clusterRole = new k8s.rbac.v1.ClusterRole(`${name}-${role}-cluster-role`, r.clusterRole, child());
                const binding = new k8s.rbac.v1.ClusterRoleBinding(
                    `${name}-${role}-cluster-role-binding`,
                    r.clusterRoleBinding,
                    child([clusterRole, sa]),
                );
                return [role, [sa, binding]];
            }),
        ) as unknown as Record<keyof typeof m.roles, pulumi.Resource[]>;
        const role = new k8s.rbac.v1.Role(`${name}-role`, m.role, child([ns]));
        const roleBinding = new k8s.rbac.v1.RoleBinding(`${name}-role-binding`, m.roleBinding, child([role, ...roles["control-plane"]]));

        // Node identities: ovnkube-identity approves the nodes' certificate requests and serves the
        // webhook with the program's certificate; the webhooks come once it runs.
        const identity = m.identity && this.identity(name, m.identity, args.model, child, [ns, config]);

        // Pods started before their ConfigMap, account, permissions or CRDs exist fail and back
        // off; waiting for them makes the first rollout clean.
        const ready = (more: pulumi.Resource[]) => crds.apply((c) => [config, hostNetworkNs, ...c, ...more]);
        // Centralized with OVN from the image: the centrals' databases before the master that writes them.
        const databases =
            m.databases &&
            new k8s.apps.v1.DaemonSet(daemonSetResourceName(name, m.databases.metadata.name), m.databases, child(ready(roles.node)));
        const controlPlane = new k8s.apps.v1.DaemonSet(
            daemonSetResourceName(name, m.controlPlane.metadata.name),
            m.controlPlane,
            child(ready([...plans, ...roles["control-plane"], roleBinding, ...(databases ? [databases] : [])])),
        );
        // The nodes after the control plane, as upstream upgrades: an update rolls the cluster
        // manager to the new release before any node's controller. They come after every plan
        // through it (listing the plans again would cost the checkpoint a URN per node per
        // DaemonSet), and a node's pod only once its own plan put the group label on its Node.
        const nodes = m.nodes.map(
            (ds) =>
                new k8s.apps.v1.DaemonSet(
                    daemonSetResourceName(name, ds.metadata.name),
                    ds,
                    child(ready([...roles.node, ...(identity ?? []), controlPlane])),
                ),
        );

        this.workloads = [...(databases ? [databases] : []), controlPlane, ...nodes];
        this.namespace = ns.metadata.name;
        this.controlPlaneDaemonSet = controlPlane.metadata.name;
        this.nodeDaemonSets = pulumi.all(nodes.map((ds) => ds.metadata.name));
        this.nodePlan = pulumi.output(Object.fromEntries(m.nodePlans.map((p) => [p.metadata.name, p.metadata.annotations])));
        this.crds = crds.apply((c) => pulumi.all(c.map((crd) => crd.metadata.name)));
        // The node plan stays out of the checkpoint (about 0.2 KB per node): each Node's plan resource records it.
        this.registerOutputs({
            namespace: this.namespace,
            controlPlaneDaemonSet: this.controlPlaneDaemonSet,
            nodeDaemonSets: this.nodeDaemonSets,
            crds: this.crds,
        });
    }

    /** ovnkube-identity and what it needs; returns what ovnkube-node waits for. */
    private identity(
        name: string,
        m: NonNullable<KubeManifests["identity"]>,
        model: KubeModel,
        child: (dependsOn?: pulumi.Input<pulumi.Input<pulumi.Resource>[]>) => pulumi.CustomResourceOptions,
        first: pulumi.Resource[],
    ): pulumi.Resource[] {
        const certificate = new WebhookCertificate(
            `${name}-webhook-certificate`,
            { hosts: [model.identity!.webhookAddress] },
            { parent: this },
        );
        const sa = new k8s.core.v1.ServiceAccount(`${name}-identity-service-account`, m.serviceAccount, child(first));
        const clusterRole = new k8s.rbac.v1.ClusterRole(`${name}-identity-cluster-role`, m.clusterRole, child());
        const clusterRoleBinding = new k8s.rbac.v1.ClusterRoleBinding(
            `${name}-identity-cluster-role-binding`,
            m.clusterRoleBinding,
            child([clusterRole, sa]),
        );
        const role = new k8s.rbac.v1.Role(`${name}-identity-role`, m.role, child(first));
        const roleBinding = new k8s.rbac.v1.RoleBinding(`${name}-identity-role-binding`, m.roleBinding, child([role, sa]));
        const stringData = pulumi.secret(
            pulumi.all([certificate.certificate, certificate.privateKey]).apply(([cert, key]) => ({ "tls.crt": cert, "tls.key": key })),
        );
        const secret = new k8s.core.v1.Secret(`${name}-webhook-secret`, { ...webhookSecret(model), stringData }, child(first));
        const daemonSet = new k8s.apps.v1.DaemonSet(
            daemonSetResourceName(name, m.daemonSet.metadata.name),
            m.daemonSet,
            child([...first, clusterRoleBinding, roleBinding, secret]),
        );
        const caBundle = certificate.caCertificate.apply((ca) => Buffer.from(ca).toString("base64"));
        const webhooks = webhookConfigurations(model).map(
            (w) =>
                new k8s.admissionregistration.v1.ValidatingWebhookConfiguration(
                    `${name}-${w.metadata.name}`,
                    { ...w, webhooks: w.webhooks.map((h) => ({ ...h, clientConfig: { ...h.clientConfig, caBundle } })) },
                    child([daemonSet]),
                ),
        );
        return [daemonSet, ...webhooks];
    }
}
