// The local cluster's Kubernetes: the control plane (./kube), the files of an ovn-kubernetes
// release's image for every host, and per host either a kubelet stand-in (./kubelet) or the
// upstream kubelet with containerd (./node, `kubelet: "real"`). `up --kubernetes` runs these in
// order; the program then deploys ovnkube through the API server and the kubelets run its pods.
import * as fs from "node:fs";
import * as path from "node:path";
import { buildKubeconfig, KubeClient } from "../kubeclient";
import { LAB_DIR_MOUNT } from "./holder";
import { startControlPlane, type ControlPlane } from "./kube";
import { labBinaries } from "./kube/labBinaries";
import { KUBERNETES_RELEASE } from "./labReleases";
import { DEFAULT_OVN_KUBERNETES_RELEASE, OVN_KUBERNETES_RELEASES, checkOvnKubernetesRelease, imagePath, ovnKubernetesLabImage, ovnKubernetesLabRelease, type OvnKubernetesRelease } from "./labReleases";
import { kubeletOptionsForHost, restartKubelet, startKubelet, stopKubelet, type RunningKubelet } from "./kubelet";
import { down } from "./down";
import { DEFAULT_ID, stateDir } from "./names";
import { LOCAL_DEFAULTS } from "./stackFile";
import { DEFAULT_OS, findHost, hasOwnRoot, hostOs, saveCluster, type LocalCluster, type LocalHost } from "./state";
import { inHost } from "./kubelet/hostfs";
import { up, type UpOptions } from "./up";
import { labNodeImages } from "./node/images";
import { importImages, restartRealKubelet, startRealNode, stopRealKubelet, type RealNode } from "./node/start";

/** Which kubelet the hosts run: the stand-in, or the upstream kubelet with containerd (Debian unstable hosts). */
export const KUBELET_KINDS = ["stand-in", "real"] as const;
export type KubeletKind = (typeof KUBELET_KINDS)[number];

/**
 * The kubelet hosts of `os` run unless told: the upstream one where containerd is in the host's
 * root (Debian unstable), the stand-in elsewhere (Debian 12 hosts share this machine's root, the
 * Debian 13 base has no container runtime).
 */
export function defaultKubeletKind(os: string | undefined): KubeletKind {
    return os === "debian-sid" ? "real" : "stand-in";
}

/** Throws unless `kind` is a kubelet the lab has. */
export function checkKubeletKind(kind: string): KubeletKind {
    if (!(KUBELET_KINDS as readonly string[]).includes(kind)) throw new Error(`unknown kubelet ${JSON.stringify(kind)}: use ${KUBELET_KINDS.join(" or ")}`);
    return kind as KubeletKind;
}

/** kubeadm's label for control-plane nodes; a kubelet's own --node-labels may not set it. */
const CONTROL_PLANE_LABEL = "node-role.kubernetes.io/control-plane";

/** The lab directory's folder of images: one directory per ovn-kubernetes release. */
const IMAGES_DIR = "images";
/** The lab directory's folders of the real kubelet's binary and the OCI archives its containerd imports. */
const NODE_BIN_DIR = "bin";
const OCI_DIR = "oci";

/** Hard-links `source` to `target` when on the same filesystem, else copies it. */
/** Where cluster `id` keeps its lab directory on this machine. */
const labDirOf = (id: string) => path.join(stateDir(id), "lab");

function linkOrCopy(source: string, target: string, mode: number): void {
    fs.mkdirSync(path.dirname(target), { recursive: true });
    fs.rmSync(target, { force: true });
    try {
        fs.linkSync(source, target);
    } catch {
        fs.copyFileSync(source, target);
        fs.chmodSync(target, mode);
    }
}

/** Where a host sees the files of `release`'s image (its lab directory is mounted at LAB_DIR_MOUNT). */
export function labImageDir(release: OvnKubernetesRelease): string {
    return path.posix.join(LAB_DIR_MOUNT, IMAGES_DIR, ovnKubernetesLabRelease(release).name);
}

/**
 * The lab directory of cluster `id` with the image files of every release (/usr/bin/ovnkube …,
 * /usr/libexec/cni/ovn-k8s-cni-overlay, as the upstream image has them), each in a directory of
 * its own, hard-linked from the machine-wide cache when it is on the same filesystem (else
 * copied): a cluster can be upgraded from one release to the next. Made before the hosts start,
 * since they bind-mount it.
 */
export async function prepareLabDir(id: string, release: OvnKubernetesRelease, kubelet: KubeletKind = "stand-in", log?: (line: string) => void): Promise<{ dir: string; node?: RealNodeFiles }> {
    const dir = labDirOf(id);
    for (const r of OVN_KUBERNETES_RELEASES) await prepareImage(dir, r);
    return { dir, node: kubelet === "real" ? await prepareNodeFiles(dir, release, log) : undefined };
}

/** The real kubelet's files as the hosts see them. */
export interface RealNodeFiles {
    kubeletBin: string;
    imageArchives: string[];
}

/**
 * Each host's containerd gets the image of the cluster's release only: an ovn-kubernetes image is
 * about 570 MB, stored twice per host (content and unpacked), and imported on every bring-up.
 */
async function prepareNodeFiles(dir: string, release: OvnKubernetesRelease, log?: (line: string) => void): Promise<RealNodeFiles> {
    const kubelet = await labBinaries(["kubelet"], KUBERNETES_RELEASE);
    const kubeletBin = path.posix.join(LAB_DIR_MOUNT, NODE_BIN_DIR, "kubelet");
    linkOrCopy(kubelet.kubelet, path.join(dir, NODE_BIN_DIR, "kubelet"), 0o755);
    return { kubeletBin, imageArchives: await linkNodeImages(dir, release, log) };
}

/** The node images for `release`, built when missing, linked into the lab directory; their paths as the hosts see them. */
async function linkNodeImages(dir: string, release: OvnKubernetesRelease, log?: (line: string) => void): Promise<string[]> {
    return (await labNodeImages([release], log)).map((image) => {
        const name = path.basename(image.archive);
        linkOrCopy(image.archive, path.join(dir, OCI_DIR, name), 0o644);
        return path.posix.join(LAB_DIR_MOUNT, OCI_DIR, name);
    });
}

/**
 * Puts the image of `release` on every node of the real kubelet, as a node pulls it when a pod
 * first names it: the lab has no registry, so an upgrade's image is imported before the up that
 * names it. The stand-ins need nothing: they run the lab directory's files of every release.
 */
export async function pullReleaseImage(cluster: LocalCluster, lab: KubernetesLab, release: OvnKubernetesRelease, log?: (line: string) => void): Promise<void> {
    if (lab.nodes.length === 0) return;
    const archives = await linkNodeImages(labDirOf(cluster.id), release, log);
    await Promise.all(lab.nodes.map((n) => importImages(findHost(cluster, n.nodeName), archives)));
}

async function prepareImage(dir: string, release: OvnKubernetesRelease): Promise<void> {
    const r = ovnKubernetesLabRelease(release);
    const bins = await labBinaries(r.binaries, r);
    const imageDir = path.join(dir, path.relative(LAB_DIR_MOUNT, labImageDir(release)));
    for (const name of r.binaries) linkOrCopy(bins[name], path.join(imageDir, imagePath(name)), 0o755);
}

/** Every release's image reference, mapped to its files: the stand-ins run whichever a pod names. */
export function labImages(): Record<string, string> {
    return Object.fromEntries(OVN_KUBERNETES_RELEASES.map((r) => [ovnKubernetesLabImage(r), labImageDir(r)]));
}

export interface KubernetesLab {
    controlPlane: ControlPlane;
    /** The stand-ins (none when the hosts run the real kubelet). */
    kubelets: RunningKubelet[];
    /** The real kubelets with their containerd (none with stand-ins). */
    nodes: RealNode[];
}

export interface StartKubernetesOptions {
    serviceSubnet: string;
    /** The ovnkube image the stack runs: the stand-ins run the files in `imageDir` for it. */
    ovnkubeImage: string;
    /** The image's files as the hosts see them (labImageDir). */
    imageDir: string;
    /** Hosts labelled as control-plane nodes (where ovnkube-master may run); default the first. */
    controlPlaneNodes?: string[];
    /** The real kubelet's files in the lab directory; the stand-ins run when absent. */
    realNode?: RealNodeFiles;
    log?: (line: string) => void;
}

/** Where kubeadm leaves a node's kubelet credentials, which ovnkube-node requests its own certificate with. */
export const KUBELET_KUBECONFIG = "/etc/kubernetes/kubelet.conf";
export const KUBELET_CLIENT_PEM = "/var/lib/kubelet/pki/kubelet-client-current.pem";

/**
 * The kubelet's credentials where kubeadm puts them, in the host's own root: its kubeconfig naming
 * the client certificate and key file, both root-only. The stand-in itself reads its copy from this
 * machine; this one is the host's, for what runs on it (ovnkube-node's certificate request).
 */
function installKubeletCredentials(host: LocalHost, server: string, caPem: string, credentials: { user: string; certPem: string; keyPem: string }): void {
    const inRoot = (p: string) => inHost(host.holderPid, p);
    const write = (p: string, text: string) => {
        fs.mkdirSync(path.dirname(inRoot(p)), { recursive: true, mode: 0o700 });
        fs.writeFileSync(inRoot(p), text, { mode: 0o600 });
    };
    write(KUBELET_CLIENT_PEM, credentials.certPem + credentials.keyPem);
    write(KUBELET_KUBECONFIG, buildKubeconfig({ server, caPem, user: credentials.user, credentials: { certKeyFile: KUBELET_CLIENT_PEM } }));
}

/** Starts the control plane and a kubelet per host; the hosts must have been made with the lab directory. */
export async function startKubernetes(cluster: LocalCluster, opts: StartKubernetesOptions): Promise<KubernetesLab> {
    const log = opts.log ?? ((line: string) => console.log(line));
    const controlPlane = await startControlPlane(cluster, { serviceSubnet: opts.serviceSubnet, log });
    const admin = KubeClient.fromKubeconfig(controlPlane.adminKubeconfig.content);
    try {
        const kubelets: RunningKubelet[] = [];
        const nodes: RealNode[] = [];
        log(`${opts.realNode ? "kubelet v1.36.2 and containerd" : "kubelet stand-ins"}: starting on ${cluster.hosts.map((h) => h.name).join(", ")}`);
        await Promise.all(
            cluster.hosts.map(async (h) => {
                const credentials = await controlPlane.nodeCredentials(h.name);
                if (hasOwnRoot(hostOs(h))) installKubeletCredentials(h, controlPlane.apiServerUrl, controlPlane.caPem, credentials);
                if (!opts.realNode) {
                    kubelets.push(await startKubelet(kubeletOptionsForHost(cluster, h, credentials.kubeconfigPath, { images: { ...labImages(), [opts.ovnkubeImage]: opts.imageDir } })));
                    return;
                }
                if (!hasOwnRoot(hostOs(h))) throw new Error(`host ${h.name} runs on this machine's root (${hostOs(h)}): the real kubelet needs Debian unstable hosts`);
                nodes.push(await startRealNode({
                    clusterId: cluster.id, host: h, caPem: controlPlane.caPem, kubeconfig: KUBELET_KUBECONFIG, ...opts.realNode,
                    logDir: path.join(cluster.dir, "kubelet", h.name), admin,
                }));
            }),
        );
        // As kubeadm does for its control-plane nodes: the cluster admin labels them.
        for (const node of opts.controlPlaneNodes ?? [cluster.hosts[0].name])
            await admin.patch({ apiVersion: "v1", kind: "Node", name: node }, { metadata: { labels: { [CONTROL_PLANE_LABEL]: "" } } }, "merge");
        log(`kubernetes: API server ${controlPlane.apiServerUrl}, ${cluster.hosts.length} nodes registered; admin kubeconfig ${controlPlane.adminKubeconfig.path}`);
        return { controlPlane, kubelets, nodes };
    } finally {
        admin.close();
    }
}

export interface KubernetesUpOptions extends Omit<UpOptions, "labDir"> {
    serviceSubnet?: string;
    /** The ovn-kubernetes release whose binaries the hosts get (default DEFAULT_OVN_KUBERNETES_RELEASE). */
    ovnKubernetes?: OvnKubernetesRelease;
    /** The image reference the stand-ins map to the release's files (default ovnKubernetesLabImage of the release). */
    ovnkubeImage?: string;
    /** Which kubelet the hosts run (default defaultKubeletKind of the hosts' os). */
    kubelet?: KubeletKind;
    log?: (line: string) => void;
}

/**
 * A local cluster with its Kubernetes: the lab directory, the hosts (which mount it), the control
 * plane and the kubelets. On a failure everything made so far is taken down again.
 */
export async function upWithKubernetes(opts: KubernetesUpOptions): Promise<{ cluster: LocalCluster; kubernetes: KubernetesLab }> {
    const id = opts.id ?? DEFAULT_ID;
    const release = checkOvnKubernetesRelease(opts.ovnKubernetes ?? DEFAULT_OVN_KUBERNETES_RELEASE);
    const kubelet = checkKubeletKind(opts.kubelet ?? defaultKubeletKind(opts.os));
    if (kubelet === "real" && opts.os !== "debian-sid") throw new Error(`kubelet "real" runs on Debian unstable hosts (os "debian-sid"), not os ${JSON.stringify(opts.os ?? DEFAULT_OS)}`);
    const lab = await prepareLabDir(id, release, kubelet, opts.log);
    const cluster = await up({ ...opts, labDir: lab.dir });
    try {
        cluster.ovnKubernetes = { release, image: opts.ovnkubeImage ?? ovnKubernetesLabImage(release), imageDir: labImageDir(release), kubelet };
        saveCluster(cluster);
        const kubernetes = await startKubernetes(cluster, {
            serviceSubnet: opts.serviceSubnet ?? LOCAL_DEFAULTS.serviceSubnet,
            ovnkubeImage: cluster.ovnKubernetes.image,
            imageDir: cluster.ovnKubernetes.imageDir,
            realNode: lab.node,
            log: opts.log,
        });
        return { cluster, kubernetes };
    } catch (e) {
        await down(id).catch(() => undefined);
        throw e;
    }
}

/**
 * Takes `node` out of service as an operator does before `kubectl delete node`: its kubelet and the
 * containers it ran stopped, whichever kubelet the host runs.
 */
export async function stopNodeKubelet(cluster: LocalCluster, lab: KubernetesLab, node: string): Promise<void> {
    const real = lab.nodes.find((n) => n.nodeName === node);
    if (real) return stopRealKubelet(findHost(cluster, node), real);
    const standIn = lab.kubelets.find((k) => k.nodeName === node);
    if (!standIn) throw new Error(`no kubelet runs for node ${node} of local cluster ${cluster.id}`);
    await stopKubelet(standIn);
}

/** Starts the kubelet of `node` again (it registers its Node anew if it was deleted), and records it in `lab`. */
export async function restartNodeKubelet(cluster: LocalCluster, lab: KubernetesLab, node: string): Promise<void> {
    const host = findHost(cluster, node);
    const real = lab.nodes.findIndex((n) => n.nodeName === node);
    if (real >= 0) {
        const admin = KubeClient.fromKubeconfig(lab.controlPlane.adminKubeconfig.content);
        try {
            lab.nodes[real] = await restartRealKubelet(host, lab.nodes[real], admin);
        } finally {
            admin.close();
        }
        return;
    }
    const standIn = lab.kubelets.findIndex((k) => k.nodeName === node);
    if (standIn < 0) throw new Error(`no kubelet runs for node ${node} of local cluster ${cluster.id}`);
    lab.kubelets[standIn] = await restartKubelet(lab.kubelets[standIn], host.netns);
}
