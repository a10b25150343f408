// The release's optional features (../../config/features) where they are set: each is in the chosen
// release, has the features it works with, and needs nothing this program does not deploy; a node
// that may hold egress IPs is a Kubernetes node of a cluster with EgressIP on.
import { FEATURE_KEYS, featureOf, featureSettings, releaseHas, type FeatureKey } from "../../config/features";
import { DEFAULT_OVNKUBE_ARCHITECTURE, DEFAULT_OVNKUBE_VERSION } from "../../config/releases";
import { isK8sNode } from "../../model/nodes";
import type { StackConfigInput } from "../../config/types";

type Add = (path: string, message: string) => void;

const featurePath = (k: string) => `ovnkube.features.${k}`;

/** Relations: every enabled feature can work with this release and what the stack deploys. */
export function featureProblems(cfg: StackConfigInput, ovnkubeMode: boolean, add: Add): void {
    if (!ovnkubeMode) {
        cfg.nodes.forEach((n, i) => {
            if (n.egressAssignable)
                add(
                    `nodes[${i}].egressAssignable`,
                    "applies to ovnkube mode only (ovnkube assigns egress IPs), and kubernetes.enabled is false; remove it",
                );
        });
        return;
    }
    const version = cfg.ovnkube?.version ?? DEFAULT_OVNKUBE_VERSION;
    const features = featureSettings(cfg.ovnkube?.features);
    const architecture = cfg.ovnkube?.architecture ?? DEFAULT_OVNKUBE_ARCHITECTURE;
    for (const k of FEATURE_KEYS) {
        if (!features[k]) continue;
        const f = featureOf(k);
        if (!releaseHas(version, k))
            add(
                featurePath(k),
                `ovn-kubernetes ${version} has no --${f.flag}: it came with ${f.since}; set ovnkube.version: "${f.since}", or remove it`,
            );
        for (const r of f.requires ?? [])
            if (!features[r as FeatureKey])
                add(
                    featurePath(k),
                    `needs ${featurePath(r)}, which is off (ovnkube refuses or ignores ${k} without it); turn it on, or remove ${k}`,
                );
        if (f.missing) add(featurePath(k), `needs ${f.missing}; remove it`);
        if (f.interconnectOnly && architecture !== "interconnect")
            add(
                featurePath(k),
                `works with the interconnect architecture only (upstream's ovnkube.sh gives centralized's master no --${f.flag}), and ovnkube.architecture is ${architecture}; set it to interconnect, or remove ${k}`,
            );
    }
    cfg.nodes.forEach((n, i) => {
        if (!n.egressAssignable) return;
        const p = `nodes[${i}].egressAssignable`;
        // ovnkube gives every Kubernetes node its own gateway router, which SNATs to the egress IP and
        // answers ARP for it: any of them may hold one, with or without the project's role "gateway".
        if (!isK8sNode(n))
            add(
                p,
                `${n.name} is no Kubernetes node (roles master or node), so ovnkube gives it no gateway router to hold an egress IP; give it the role "node", or remove it`,
            );
        if (!features.egressIp) add(p, `${featurePath("egressIp")} is off, so nothing assigns egress IPs; turn it on, or remove it`);
    });
}
