// The upstream releases the lab runs, read from the lab directory next to the project
// (../shared/k8s-lab): one directory per release with its binaries xz-compressed and a SHA256SUMS
// of the plain files (kube/labBinaries.ts unpacks them), and the CustomResourceDefinitions of the
// ovn-kubernetes releases. Pure: names and paths only.
import * as path from "node:path";
import { PROJECT_ROOT } from "./names";
import { DEFAULT_OVNKUBE_VERSION, OVNKUBE_VERSIONS, releaseOf, type OvnkubeVersion } from "@ovn-kubernetes-as-code/cluster/kube";

/** Overrides where release directories are read from: `$OVN_K8S_LAB_BIN/<release name>`, e.g. `.../k8s-v1.36.2`. */
export const LAB_BIN_ENV = "OVN_K8S_LAB_BIN";
/** Overrides where the CRD directories are read from: `$OVN_K8S_LAB_CRDS/<version>`, e.g. `.../v1.3.0`. */
export const LAB_CRDS_ENV = "OVN_K8S_LAB_CRDS";

/** The lab directory next to the project. */
const LAB_ROOT = path.join(PROJECT_ROOT, "..", "shared", "k8s-lab");

/** Every binary some lab release has. */
export const LAB_BINARIES = [
    "kube-apiserver",
    "kube-controller-manager",
    "kube-scheduler",
    "kubelet",
    "ovnkube",
    "ovn-k8s-cni-overlay",
    "ovnkube-identity",
    "ovn-kube-util",
] as const;
export type LabBinary = (typeof LAB_BINARIES)[number];

/** One release's directory of binaries. */
export interface LabRelease {
    /** The directory's name under OVN_K8S_LAB_BIN, e.g. `k8s-v1.36.2`. */
    name: string;
    /** The directory under ../shared/k8s-lab. */
    path: string;
    binaries: readonly LabBinary[];
    /** For messages: where the binaries come from upstream. */
    upstream: string;
}

/** The Kubernetes of the control plane and the kubelets; hosts that only register report the same version. */
export const KUBERNETES_VERSION = "v1.36.2";

export const KUBERNETES_RELEASE: LabRelease = {
    name: `k8s-${KUBERNETES_VERSION}`,
    path: `v1.36-v1.3/bin/k8s-${KUBERNETES_VERSION}`,
    binaries: ["kube-apiserver", "kube-controller-manager", "kube-scheduler", "kubelet"],
    upstream: `Kubernetes ${KUBERNETES_VERSION}'s release (kubernetes-server-linux-amd64.tar.gz, server/bin/)`,
};

/** The ovn-kubernetes releases the lab can run: every one the product deploys, newest first. */
export const OVN_KUBERNETES_RELEASES = OVNKUBE_VERSIONS;
export type OvnKubernetesRelease = OvnkubeVersion;
/** What `up --kubernetes` runs when not told: the product's default. */
export const DEFAULT_OVN_KUBERNETES_RELEASE: OvnKubernetesRelease = DEFAULT_OVNKUBE_VERSION;

interface OvnKubernetesLabRelease extends LabRelease {
    version: string;
    /** The image reference whose files the lab's directory stands for: the release's default image. */
    image: string;
    /** The release's CRDs under ../shared/k8s-lab. */
    crds: string;
}

/** The binaries of an ovn-kubernetes image (dist/images/Dockerfile.ubuntu). */
const IMAGE_BINARIES: readonly LabBinary[] = ["ovnkube", "ovnkube-identity", "ovn-kube-util", "ovn-k8s-cni-overlay"];

function ovnKubernetes(line: OvnKubernetesRelease): OvnKubernetesLabRelease {
    const { tag, image } = releaseOf(line);
    return {
        name: `ovn-kubernetes-${tag}`,
        path: `v1.36-v1.3/bin/ovn-kubernetes-${tag}`,
        binaries: IMAGE_BINARIES,
        upstream: `ovn-kubernetes' tag ${tag} (go-controller/cmd/<name>)`,
        version: tag,
        image,
        crds: `v1.36-v1.3/crds/${tag}`,
    };
}

const OVN_KUBERNETES: Readonly<Record<OvnKubernetesRelease, OvnKubernetesLabRelease>> = {
    "1.3": ovnKubernetes("1.3"),
    "1.2": ovnKubernetes("1.2"),
};

/** Throws unless `release` is one the lab has. */
export function checkOvnKubernetesRelease(release: string): OvnKubernetesRelease {
    if (!(OVN_KUBERNETES_RELEASES as readonly string[]).includes(release)) {
        throw new Error(`unknown ovn-kubernetes release ${JSON.stringify(release)}: use ${OVN_KUBERNETES_RELEASES.join(", ")}`);
    }
    return release as OvnKubernetesRelease;
}

export function ovnKubernetesLabRelease(release: OvnKubernetesRelease): OvnKubernetesLabRelease {
    return OVN_KUBERNETES[checkOvnKubernetesRelease(release)];
}

/** The image reference the lab maps to the files of `release`: pods naming it run the lab's binaries. */
export function ovnKubernetesLabImage(release: OvnKubernetesRelease): string {
    return ovnKubernetesLabRelease(release).image;
}

/** Where an image keeps a binary: the CNI shim in /usr/libexec/cni, the rest in /usr/bin (dist/images/Dockerfile.ubuntu). */
export function imagePath(binary: LabBinary): string {
    return binary === "ovn-k8s-cni-overlay" ? `usr/libexec/cni/${binary}` : `usr/bin/${binary}`;
}

/** The directory holding a release's compressed binaries and SHA256SUMS. */
export function labSourceDir(release: LabRelease): string {
    const override = process.env[LAB_BIN_ENV];
    return path.resolve(override ? path.join(override, release.name) : path.join(LAB_ROOT, release.path));
}

/** The lab's directory of the `k8s.ovn.org` CustomResourceDefinitions of `release` (one YAML file each). */
export function labCrdDir(release: OvnKubernetesRelease): string {
    const r = ovnKubernetesLabRelease(release);
    const override = process.env[LAB_CRDS_ENV];
    return path.resolve(override ? path.join(override, r.version) : path.join(LAB_ROOT, r.crds));
}
