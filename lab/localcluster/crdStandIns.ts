// The lab's stand-ins for other projects' CRDs. Their pinned files (components/config/releases.ts)
// are upstream text the project neither vendors nor can download while testing, so a lab API server
// gets, for each, a CRD with the same names, versions and scope and an open schema: what ovnkube's
// informers and clients need to list, watch and write those kinds. Production applies the pinned
// files themselves (from `ovnkube.crdMirror` or their URLs); `OVN_K8S_LAB_GIT` puts them in the lab.
import { stringify } from "yaml";

interface StandIn {
    kind: string;
    scope: "Namespaced" | "Cluster";
    /** Served versions, the storage version first. */
    versions: readonly string[];
    /** The pinned file has a status subresource (ovnkube writes status through it). */
    status?: true;
    /** The pinned file's `api-approved.kubernetes.io`: the API server requires it of groups under k8s.io. */
    approved?: string;
}

/** network-policy-api's approval, as its CRDs carry it. */
const NETWORK_POLICY_API_APPROVED = "https://github.com/kubernetes-sigs/network-policy-api/pull/30";

/** Read from the pinned files: names, versions, scope and subresources of each. */
const STAND_INS: Readonly<Record<string, StandIn>> = {
    // network-attachment-definition-client v1.7.7 artifacts/networks-crd.yaml
    "network-attachment-definitions.k8s.cni.cncf.io": { kind: "NetworkAttachmentDefinition", scope: "Namespaced", versions: ["v1"] },
    // ipamclaims v0.5.1-alpha artifacts/k8s.cni.cncf.io_ipamclaims.yaml
    "ipamclaims.k8s.cni.cncf.io": { kind: "IPAMClaim", scope: "Namespaced", versions: ["v1alpha1"], status: true },
    // multi-networkpolicy v1.0.1 scheme.yml (v1beta2 is there but not served)
    "multi-networkpolicies.k8s.cni.cncf.io": { kind: "MultiNetworkPolicy", scope: "Namespaced", versions: ["v1beta1"] },
    // network-policy-api v0.1.5 config/crd/experimental
    "adminnetworkpolicies.policy.networking.k8s.io": {
        kind: "AdminNetworkPolicy",
        scope: "Cluster",
        versions: ["v1alpha1"],
        status: true,
        approved: NETWORK_POLICY_API_APPROVED,
    },
    "baselineadminnetworkpolicies.policy.networking.k8s.io": {
        kind: "BaselineAdminNetworkPolicy",
        scope: "Cluster",
        versions: ["v1alpha1"],
        status: true,
        approved: NETWORK_POLICY_API_APPROVED,
    },
};

/** The stand-in CRD for the CRD named `name` (`<plural>.<group>`), as YAML. Pure. */
export function crdStandIn(name: string): string {
    const s = STAND_INS[name];
    if (!s) throw new Error(`the lab has no stand-in for the CRD ${name}: add it to lab/localcluster/crdStandIns.ts`);
    const dot = name.indexOf(".");
    const plural = name.slice(0, dot);
    return stringify({
        apiVersion: "apiextensions.k8s.io/v1",
        kind: "CustomResourceDefinition",
        metadata: {
            name,
            annotations: {
                "ovn-kubernetes-as-code/lab-stand-in": "true",
                ...(s.approved ? { "api-approved.kubernetes.io": s.approved } : {}),
            },
        },
        spec: {
            group: name.slice(dot + 1),
            scope: s.scope,
            names: { kind: s.kind, plural },
            versions: s.versions.map((v, i) => ({
                name: v,
                served: true,
                storage: i === 0,
                schema: { openAPIV3Schema: { type: "object", "x-kubernetes-preserve-unknown-fields": true } },
                ...(s.status ? { subresources: { status: {} } } : {}),
            })),
        },
    });
}
