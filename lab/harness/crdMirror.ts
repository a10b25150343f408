// The lab's copy of each ovn-kubernetes release's CRDs (../shared/k8s-lab), as the `ovnkube.crdMirror`
// a stack names: tests read the CRDs from there and never from upstream's URLs.
import { pathToFileURL } from "node:url";
import { releaseOf, type OvnkubeVersion } from "@ovn-kubernetes-as-code/cluster/kube";
import { crdUrl } from "@ovn-kubernetes-as-code/cluster/model";
import { labCrdDir } from "../localcluster/labReleases";

/** `file:///…/crds/v1.3.0/`: a directory URL ending in `/`, as validation wants it. */
export function labCrdMirror(version: OvnkubeVersion): string {
    return `${pathToFileURL(labCrdDir(version)).href}/`;
}

/** The release's CRD URLs as the model makes them with the lab's mirror. */
export function labCrdUrls(version: OvnkubeVersion): string[] {
    return releaseOf(version).crdUrls.map((u) => crdUrl(u, labCrdMirror(version)));
}
