// What each optional feature lets ovnkube do in the API, per part of ovnkube: what upstream's
// chart grants for it at v1.3.0 (docs/facts/ovnkube-1.3.md §13), given only while the feature is
// on. The parts map onto the two accounts as the network controller does (./rbac): the control
// plane holds the cluster manager's part, and, centralized, the controller's; the nodes hold the
// node's part, and, with interconnect, the controller's.
import type { FeatureKey, FeatureSettings } from "../config/features";
import type { PolicyRule } from "./objectTypes";

/** The parts of ovnkube a feature's grants go to. */
export interface FeatureGrants {
    /** The network controller: informers on the feature's objects, their status. */
    controller?: readonly PolicyRule[];
    /** The cluster manager: allocation (egress IPs, egress service hosts) and the zones' status merged. */
    clusterManager?: readonly PolicyRule[];
    /** ovnkube-node's own informers. */
    node?: readonly PolicyRule[];
}

const READ = ["get", "list", "watch"];
const WRITE = ["patch", "update"];
const OVN = "k8s.ovn.org";
const ANP = "policy.networking.k8s.io";
/** The network plumbing working group's group: NetworkAttachmentDefinition, IPAMClaim, MultiNetworkPolicy. */
const CNI = "k8s.cni.cncf.io";
const NAD = "network-attachment-definitions";
const UDNS = ["userdefinednetworks", "clusteruserdefinednetworks"];

const read = (group: string, ...resources: string[]): PolicyRule => ({ apiGroups: [group], resources, verbs: [...READ] });
const write = (group: string, ...resources: string[]): PolicyRule => ({ apiGroups: [group], resources, verbs: [...WRITE] });
const readAll = (group: string, ...resources: string[]): FeatureGrants => ({
    controller: [read(group, ...resources)],
    clusterManager: [read(group, ...resources)],
    node: [read(group, ...resources)],
});

/** Objects whose status the controller writes, and the cluster manager merges from every zone. */
const withStatus = (resource: string): FeatureGrants => ({
    controller: [read(OVN, resource), write(OVN, `${resource}/status`)],
    clusterManager: [read(OVN, resource), write(OVN, `${resource}/status`)],
});

export const FEATURE_GRANTS: Readonly<Partial<Record<FeatureKey, FeatureGrants>>> = {
    // The cluster manager assigns egress IPs to nodes by writing the EgressIP's status in its spec object.
    egressIp: {
        controller: [read(OVN, "egressips")],
        clusterManager: [read(OVN, "egressips"), write(OVN, "egressips")],
        node: [read(OVN, "egressips")],
    },
    egressFirewall: withStatus("egressfirewalls"),
    egressQos: withStatus("egressqoses"),
    // The cluster manager picks each service's node and writes it to the status.
    egressService: {
        controller: [read(OVN, "egressservices")],
        clusterManager: [read(OVN, "egressservices"), write(OVN, "egressservices/status")],
        node: [read(OVN, "egressservices")],
    },
    multiExternalGateway: { ...withStatus("adminpolicybasedexternalroutes"), node: [read(OVN, "adminpolicybasedexternalroutes")] },
    networkQos: { ...withStatus("networkqoses"), node: [read(OVN, "networkqoses")] },
    adminNetworkPolicy: {
        controller: [
            read(ANP, "adminnetworkpolicies", "baselineadminnetworkpolicies"),
            write(ANP, "adminnetworkpolicies/status", "baselineadminnetworkpolicies/status"),
        ],
        clusterManager: [
            { apiGroups: [ANP], resources: ["adminnetworkpolicies", "baselineadminnetworkpolicies"], verbs: ["list"] },
            { apiGroups: [ANP], resources: ["adminnetworkpolicies/status", "baselineadminnetworkpolicies/status"], verbs: ["patch"] },
        ],
        node: [read(ANP, "adminnetworkpolicies", "baselineadminnetworkpolicies")],
    },
    multiNetwork: readAll(CNI, NAD),
    // The cluster manager renders each UDN into a NetworkAttachmentDefinition and keeps its status,
    // and mirrors the UDN pods' EndpointSlices into the network's own.
    networkSegmentation: {
        controller: [read(OVN, ...UDNS)],
        clusterManager: [
            read(OVN, ...UDNS),
            write(OVN, ...UDNS, ...UDNS.map((r) => `${r}/status`), "clusteruserdefinednetworks/finalizers"),
            { apiGroups: [CNI], resources: [NAD], verbs: ["create", "delete", ...WRITE] },
            { apiGroups: ["discovery.k8s.io"], resources: ["endpointslices"], verbs: ["create", "update", "delete", "deletecollection"] },
        ],
        node: [read(OVN, ...UDNS)],
    },
    networkConnect: {
        ...withStatus("clusternetworkconnects"),
        clusterManager: [read(OVN, "clusternetworkconnects"), write(OVN, "clusternetworkconnects", "clusternetworkconnects/status")],
        node: [read(OVN, "clusternetworkconnects")],
    },
    // Interconnect's controllers and the cluster manager both allocate from a claim and record it in its status.
    persistentIps: {
        controller: [read(CNI, "ipamclaims"), write(CNI, "ipamclaims/status")],
        clusterManager: [read(CNI, "ipamclaims"), write(CNI, "ipamclaims/status")],
    },
    multiNetworkPolicy: { controller: [read(CNI, "multi-networkpolicies")], clusterManager: [read(CNI, "multi-networkpolicies")] },
};

/** The rules of the enabled features for the given parts, in the table's order, each once (two parts may grant the same). */
export function featureRules(features: FeatureSettings, parts: ReadonlyArray<keyof FeatureGrants>): PolicyRule[] {
    const rules = Object.entries(FEATURE_GRANTS)
        .filter(([k]) => features[k as FeatureKey])
        .flatMap(([, grants]) => parts.flatMap((p) => grants![p] ?? []));
    return rules.filter((r, i) => rules.findIndex((o) => JSON.stringify(o) === JSON.stringify(r)) === i);
}
