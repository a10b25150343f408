// The ovn-kubernetes releases this program deploys, with what each needs from its surroundings.
// One table, read by validation (which versions exist), the schema check (which OVN), the
// manifests (image, CRDs) and the docs. Facts and sources: docs/facts/ovnkube-1.3.md.

/** The ovn-kubernetes release lines (upstream maintains the two newest), newest first. */
export const OvnkubeVersion = { v1_3: "1.3", v1_2: "1.2" } as const;
export type OvnkubeVersion = (typeof OvnkubeVersion)[keyof typeof OvnkubeVersion];
export const OVNKUBE_VERSIONS: readonly OvnkubeVersion[] = Object.values(OvnkubeVersion);
/** Upstream's newest release: what a stack gets unless it names another. */
export const DEFAULT_OVNKUBE_VERSION: OvnkubeVersion = "1.3";

/** interconnect: a zone per node (local NB, SB, northd); centralized: one NB/SB for all (deprecated upstream since 1.2). */
export const OvnkubeArchitecture = { interconnect: "interconnect", centralized: "centralized" } as const;
export type OvnkubeArchitecture = (typeof OvnkubeArchitecture)[keyof typeof OvnkubeArchitecture];
export const OVNKUBE_ARCHITECTURES: readonly OvnkubeArchitecture[] = Object.values(OvnkubeArchitecture);
export const DEFAULT_OVNKUBE_ARCHITECTURE: OvnkubeArchitecture = "interconnect";

export interface OvnkubeRelease {
    version: OvnkubeVersion;
    /** The git tag the release's binaries, chart and CRDs come from. */
    tag: string;
    /**
     * The image upstream's CI publishes from the release branch (.github/workflows/docker.yml: pushes
     * to release-* tagged by branch name).
     */
    image: string;
    /** Schemas its OVSDB models were generated from (go-controller/pkg/{nb,sb}db/model.go): the oldest it can use. */
    nbSchema: string;
    sbSchema: string;
    /** The first OVN release serving both. */
    ovnRelease: string;
    /**
     * The OVN `image` carries (ovnkube.ovnSource image): dist/images/Dockerfile.ubuntu at the tag
     * installs Ubuntu's ovn-central/ovn-host onto `ubuntu:25.10`, whose OVN is 25.09.0.
     */
    imageOvn: string;
    /** The CustomResourceDefinitions the release's chart installs, by upstream URL. */
    crdUrls: readonly string[];
    /**
     * The CRDs of other projects a feature (a key of ./features) acts on and the release does not
     * ship, of the version the release's go.mod requires, from the path upstream's kind scripts apply.
     */
    featureCrdUrls: Readonly<Record<string, readonly string[]>>;
}

const RAW = "https://raw.githubusercontent.com/ovn-kubernetes/ovn-kubernetes";
const CRDS_1_2 = [
    "adminpolicybasedexternalroutes",
    "clusteruserdefinednetworks",
    "egressfirewalls",
    "egressips",
    "egressqoses",
    "egressservices",
    "networkqoses",
    "routeadvertisements",
    "userdefinednetworks",
];
const CRDS_1_3 = [...CRDS_1_2, "clusternetworkconnects", "vteps"].sort();
/** go-controller/go.mod: sigs.k8s.io/network-policy-api v0.1.5 at v1.2.0 and v1.3.0. */
const ANP_CRDS_V0_1_5 = ["adminnetworkpolicies", "baselineadminnetworkpolicies"].map(
    (c) =>
        `https://raw.githubusercontent.com/kubernetes-sigs/network-policy-api/v0.1.5/config/crd/experimental/policy.networking.k8s.io_${c}.yaml`,
);

/** go-controller/go.mod: k8snetworkplumbingwg/network-attachment-definition-client v1.7.7 at v1.2.0 and v1.3.0. */
const NAD_CRD_V1_7_7 =
    "https://raw.githubusercontent.com/k8snetworkplumbingwg/network-attachment-definition-client/v1.7.7/artifacts/networks-crd.yaml";
/** go.mod: k8snetworkplumbingwg/ipamclaims v0.5.1-alpha; contrib/kind-common.sh:925 at v1.3.0 applies this file. */
const IPAMCLAIM_CRD_V0_5_1 =
    "https://raw.githubusercontent.com/k8snetworkplumbingwg/ipamclaims/v0.5.1-alpha/artifacts/k8s.cni.cncf.io_ipamclaims.yaml";
/** go.mod: k8snetworkplumbingwg/multi-networkpolicy v1.0.1; contrib/kind-common.sh:919 at v1.3.0 applies this file. */
const MULTI_NETWORK_POLICY_CRD_V1_0_1 =
    "https://raw.githubusercontent.com/k8snetworkplumbingwg/multi-networkpolicy/refs/tags/v1.0.1/scheme.yml";
/** The same versions in both releases' go.mod. */
const FEATURE_CRDS = {
    adminNetworkPolicy: ANP_CRDS_V0_1_5,
    multiNetwork: [NAD_CRD_V1_7_7],
    persistentIps: [IPAMCLAIM_CRD_V0_5_1],
    multiNetworkPolicy: [MULTI_NETWORK_POLICY_CRD_V1_0_1],
};

export const OVNKUBE_RELEASES: Readonly<Record<OvnkubeVersion, OvnkubeRelease>> = {
    "1.3": {
        version: "1.3",
        tag: "v1.3.0",
        image: "ghcr.io/ovn-kubernetes/ovn-kubernetes/ovn-kube-ubuntu:release-1.3",
        nbSchema: "7.12.0",
        sbSchema: "21.5.0",
        ovnRelease: "25.09",
        // Dockerfile.ubuntu:14 FROM ubuntu:25.10, :21 its ovn-central ovn-common ovn-host
        imageOvn: "25.09.0",
        // helm/ovn-kubernetes/crds/ at v1.3.0
        crdUrls: CRDS_1_3.map((c) => `${RAW}/v1.3.0/helm/ovn-kubernetes/crds/k8s.ovn.org_${c}.yaml`),
        featureCrdUrls: FEATURE_CRDS,
    },
    "1.2": {
        version: "1.2",
        tag: "v1.2.0",
        image: "ghcr.io/ovn-kubernetes/ovn-kubernetes/ovn-kube-ubuntu:release-1.2",
        nbSchema: "7.12.0",
        sbSchema: "21.5.0",
        ovnRelease: "25.09",
        // Dockerfile.ubuntu:11 FROM ubuntu:25.10, :18 its ovn-central ovn-common ovn-host
        imageOvn: "25.09.0",
        // the chart's crds/ at v1.2.0 link to these plain-YAML templates
        crdUrls: CRDS_1_2.map((c) => `${RAW}/v1.2.0/dist/templates/k8s.ovn.org_${c}.yaml.j2`),
        featureCrdUrls: FEATURE_CRDS,
    },
};

export const releaseOf = (version: OvnkubeVersion): OvnkubeRelease => OVNKUBE_RELEASES[version];

/** The CRDs a stack of `version` applies: the release's, then the other projects' of each enabled feature. */
export function releaseCrdUrls(version: OvnkubeVersion, features: Readonly<Record<string, boolean | undefined>>): string[] {
    const release = releaseOf(version);
    return [...release.crdUrls, ...Object.entries(release.featureCrdUrls).flatMap(([k, urls]) => (features[k] ? urls : []))];
}
