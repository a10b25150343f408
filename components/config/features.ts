// The optional features of ovn-kubernetes for the default network: one table read by the schema
// (keys, descriptions, defaults), validation (which release has which, what each needs), the
// command lines (which process gets which flag), RBAC, the listeners check and docs/features.md.
// Facts and sources: docs/facts/ovnkube-1.3.md §13. Defaults are the chart's values-single-node-zone.yaml
// (values-no-ic.yaml has the same for every key here) at the release's tag, so a stack that says
// nothing gets what a chart user gets.
import { OVNKUBE_VERSIONS, type OvnkubeVersion } from "./releases";

/**
 * The ovnkube processes ovnkube.sh starts, by its function names: `master` (centralized
 * `ovn-master`), `clusterManager` (interconnect `ovn-cluster-manager`), `controller` (interconnect
 * `ovnkube-controller-with-node`, the project's node DaemonSet) and `node` (centralized `ovn-node`).
 */
export type OvnkubeProcess = "master" | "clusterManager" | "controller" | "node";

const ALL: readonly OvnkubeProcess[] = ["master", "clusterManager", "controller", "node"];
/** Where the network controller runs, and the cluster manager beside it. */
const CONTROLLERS: readonly OvnkubeProcess[] = ["master", "clusterManager", "controller"];
/** Every process but centralized's master: ovnkube.sh's ovn-master passes the flag to nobody there. */
const INTERCONNECT: readonly OvnkubeProcess[] = ["clusterManager", "controller", "node"];

export interface OvnkubeFeature {
    /** ovnkube's flag, without dashes. */
    flag: string;
    /** The oldest supported release whose ovnkube has the flag. */
    since: OvnkubeVersion;
    /** The chart's value at the release's tag. */
    chartDefault: boolean;
    /** A stack's default where it differs from the chart's, and why in a comment: else the chart's. */
    projectDefault?: boolean;
    /** Which processes ovnkube.sh passes the flag to. */
    processes: readonly OvnkubeProcess[];
    /** The schema's description. */
    description: string;
    /** Features it works only with (ovnkube refuses or ignores it otherwise): keys of FEATURES. */
    requires?: readonly string[];
    /** Something it needs that this program does not deploy: the feature is refused, naming it. */
    missing?: string;
    /** The custom resources it acts on (docs/features.md). */
    crds?: readonly string[];
    /** Works with interconnect only: centralized's master never gets the flag from ovnkube.sh. */
    interconnectOnly?: boolean;
}

export const FEATURES = {
    egressIp: {
        flag: "enable-egress-ip",
        since: "1.2",
        chartDefault: true,
        processes: ALL,
        description:
            "EgressIP: pods of selected namespaces leave the cluster with a fixed source address, held by a node labelled egressAssignable",
        crds: ["egressips.k8s.ovn.org"],
    },
    egressFirewall: {
        flag: "enable-egress-firewall",
        since: "1.2",
        chartDefault: true,
        processes: CONTROLLERS,
        description: "EgressFirewall: per-namespace allow/deny rules for traffic leaving the cluster",
        crds: ["egressfirewalls.k8s.ovn.org"],
    },
    egressQos: {
        flag: "enable-egress-qos",
        since: "1.2",
        chartDefault: true,
        processes: CONTROLLERS,
        description: "EgressQoS: DSCP marking of pods' traffic leaving the cluster",
        crds: ["egressqoses.k8s.ovn.org"],
    },
    egressService: {
        flag: "enable-egress-service",
        since: "1.2",
        chartDefault: true,
        processes: ALL,
        description: "EgressService: a LoadBalancer service's pods leave the cluster from its ingress address and node",
        crds: ["egressservices.k8s.ovn.org"],
    },
    multiExternalGateway: {
        flag: "enable-multi-external-gateway",
        since: "1.2",
        chartDefault: true,
        processes: ALL,
        description: "AdminPolicyBasedExternalRoute: pods' egress through external gateways named by policy",
        crds: ["adminpolicybasedexternalroutes.k8s.ovn.org"],
    },
    serviceTemplates: {
        flag: "enable-svc-template-support",
        since: "1.2",
        chartDefault: true,
        processes: ["master", "controller"],
        description: "one load-balancer template per NodePort service instead of one load balancer per node",
    },
    adminNetworkPolicy: {
        flag: "enable-admin-network-policy",
        since: "1.2",
        chartDefault: false,
        processes: ALL,
        description:
            "AdminNetworkPolicy and BaselineAdminNetworkPolicy (sigs.k8s.io/network-policy-api); their CRDs are applied with the release's",
        crds: ["adminnetworkpolicies.policy.networking.k8s.io", "baselineadminnetworkpolicies.policy.networking.k8s.io"],
    },
    multicast: {
        flag: "enable-multicast",
        since: "1.2",
        chartDefault: false,
        processes: ALL,
        description: "multicast between the pods of a namespace annotated k8s.ovn.org/multicast-enabled",
    },
    networkQos: {
        flag: "enable-network-qos",
        since: "1.2",
        chartDefault: false,
        processes: ALL,
        description: "NetworkQoS: DSCP marking and rate limits from and to pods",
        crds: ["networkqoses.k8s.ovn.org"],
    },
    statelessNetworkPolicy: {
        flag: "enable-stateless-netpol",
        since: "1.2",
        chartDefault: false,
        // ovnkube.sh computes it in ovnkube-controller-with-node but leaves it off the command
        // line there; the project passes it to the network controller, which reads it.
        processes: ["master", "controller"],
        description: "NetworkPolicies annotated k8s.ovn.org/stateless-netpol become stateless ACLs",
    },
    allowIcmpNetworkPolicy: {
        flag: "allow-icmp-network-policy",
        since: "1.3",
        chartDefault: false,
        processes: CONTROLLERS,
        description: "ICMP and ICMPv6 pass NetworkPolicy default-deny rules",
    },
    routeAdvertisements: {
        flag: "enable-route-advertisements",
        since: "1.2",
        chartDefault: false,
        processes: ALL,
        description: "RouteAdvertisements: BGP advertisement of pod networks through FRR-k8s",
        missing: "FRR-k8s (its frrconfigurations.frrk8s.metallb.io CRD and daemon), which this program does not deploy",
        crds: ["routeadvertisements.k8s.ovn.org"],
    },
    evpn: {
        flag: "enable-evpn",
        since: "1.3",
        chartDefault: false,
        processes: ALL,
        description: "EVPN for advertised networks; needs routeAdvertisements",
        requires: ["routeAdvertisements"],
        crds: ["vteps.k8s.ovn.org"],
    },
    dnsNameResolver: {
        flag: "enable-dns-name-resolver",
        since: "1.2",
        chartDefault: false,
        processes: CONTROLLERS,
        description: "DNS names in EgressFirewall rules resolved through DNSNameResolver objects; needs egressFirewall",
        requires: ["egressFirewall"],
        missing:
            "the DNSNameResolver CRD (dnsnameresolvers.network.openshift.io) and its resolver in CoreDNS, which this program does not deploy",
    },
    multiNetwork: {
        flag: "enable-multi-network",
        since: "1.2",
        chartDefault: false,
        processes: ALL,
        description:
            "NetworkAttachmentDefinitions of type ovn-k8s-cni-overlay: the base of user-defined networks, and secondary networks, which pods join through Multus (not deployed by this program)",
        crds: ["network-attachment-definitions.k8s.cni.cncf.io"],
    },
    networkSegmentation: {
        flag: "enable-network-segmentation",
        since: "1.2",
        chartDefault: false,
        processes: ALL,
        description:
            "user-defined networks: UserDefinedNetwork and ClusterUserDefinedNetwork give namespaces created with the label k8s.ovn.org/primary-user-defined-network their own isolated primary network; needs multiNetwork",
        requires: ["multiNetwork"],
        crds: ["userdefinednetworks.k8s.ovn.org", "clusteruserdefinednetworks.k8s.ovn.org"],
    },
    networkConnect: {
        flag: "enable-network-connect",
        since: "1.3",
        chartDefault: false,
        processes: INTERCONNECT,
        description: "ClusterNetworkConnect: routes between the user-defined networks it selects; needs networkSegmentation",
        requires: ["networkSegmentation"],
        crds: ["clusternetworkconnects.k8s.ovn.org"],
        interconnectOnly: true,
    },
    preconfiguredUdnAddresses: {
        flag: "enable-preconfigured-udn-addresses",
        since: "1.2",
        chartDefault: false,
        processes: INTERCONNECT,
        description: "pods of a primary user-defined network may ask for their addresses and MAC; needs networkSegmentation",
        requires: ["networkSegmentation"],
        interconnectOnly: true,
    },
    dynamicUdnAllocation: {
        flag: "enable-dynamic-udn-allocation",
        since: "1.3",
        chartDefault: false,
        processes: ALL,
        description: "a node sets up a user-defined network only while it runs pods of it; needs networkSegmentation",
        requires: ["networkSegmentation"],
    },
    persistentIps: {
        flag: "enable-persistent-ips",
        since: "1.2",
        // The chart's true acts only with multi-network (factory.go at v1.3.0: the IPAMClaim
        // informer starts only with --enable-multi-network), whose own default is off; on by
        // default it would be refused below without multiNetwork, and would need the IPAMClaim CRD.
        chartDefault: true,
        projectDefault: false,
        processes: ["master", "clusterManager"],
        description:
            "IPAMClaim (k8snetworkplumbingwg/ipamclaims): a pod naming a claim keeps its addresses on a Layer2 or localnet user-defined or secondary network; needs multiNetwork",
        requires: ["multiNetwork"],
        crds: ["ipamclaims.k8s.cni.cncf.io"],
    },
    multiNetworkPolicy: {
        flag: "enable-multi-networkpolicy",
        since: "1.2",
        chartDefault: false,
        processes: ALL,
        description:
            "MultiNetworkPolicy (k8snetworkplumbingwg/multi-networkpolicy): policies on secondary networks' interfaces; needs multiNetwork (the chart passes it with multi-network)",
        requires: ["multiNetwork"],
        crds: ["multi-networkpolicies.k8s.cni.cncf.io"],
    },
} as const satisfies Record<string, OvnkubeFeature>;

export type FeatureKey = keyof typeof FEATURES;
export const FEATURE_KEYS = Object.keys(FEATURES) as FeatureKey[];
export const featureOf = (key: FeatureKey): OvnkubeFeature => FEATURES[key];

/** True when `version`'s ovnkube has the feature's flag (newest first: a lower index is newer). */
export const releaseHas = (version: OvnkubeVersion, key: FeatureKey): boolean =>
    OVNKUBE_VERSIONS.indexOf(version) <= OVNKUBE_VERSIONS.indexOf(FEATURES[key].since);

/** `--egressip-node-healthcheck-port`: the chart's value; ovnkube.sh passes it to every process. */
export const EGRESS_IP_HEALTH_CHECK = { flag: "egressip-node-healthcheck-port", chartDefault: 9107, processes: ALL } as const;

/** ovnkube's gateway mode: `shared` routes egress through the gateway router, `local` through the host's stack. */
export const OvnkubeGatewayMode = { shared: "shared", local: "local" } as const;
export type OvnkubeGatewayMode = (typeof OvnkubeGatewayMode)[keyof typeof OvnkubeGatewayMode];
/** The chart's gatewayMode. */
export const DEFAULT_OVNKUBE_GATEWAY_MODE: OvnkubeGatewayMode = "shared";

/** The node label that lets a node hold egress IPs (go-controller/pkg/util/node_annotations.go:99 at v1.3.0). */
export const EGRESS_ASSIGNABLE_LABEL = "k8s.ovn.org/egress-assignable";

/** A stack's default for the feature: the chart's, unless the table says otherwise. */
export const featureDefault = (key: FeatureKey): boolean => featureOf(key).projectDefault ?? featureOf(key).chartDefault;

/** Every feature's value, a feature left unset taking the chart's. */
export type FeatureSettings = Record<FeatureKey, boolean>;

/** The features with their values filled from the chart's defaults. */
export function featureSettings(input: Partial<Record<FeatureKey, boolean>> = {}): FeatureSettings {
    return Object.fromEntries(FEATURE_KEYS.map((k) => [k, input[k] ?? featureDefault(k)])) as FeatureSettings;
}

/** The flags of the enabled features that `process` takes, in the table's order. */
export function featureFlags(features: FeatureSettings, healthCheckPort: number, process: OvnkubeProcess): string[] {
    const flags = FEATURE_KEYS.filter((k) => features[k] && featureOf(k).processes.includes(process)).map((k) => `-${FEATURES[k].flag}`);
    // Only with EgressIP: nothing else listens on or dials the port.
    if (features.egressIp && EGRESS_IP_HEALTH_CHECK.processes.includes(process))
        flags.push(`-${EGRESS_IP_HEALTH_CHECK.flag}=${healthCheckPort}`);
    return flags;
}
