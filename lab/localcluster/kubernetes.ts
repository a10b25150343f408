// The local cluster's Kubernetes: the control plane (./kube) and per host the upstream kubelet
// with containerd and the lab's images (./node) on Debian 13 and unstable hosts, or only its Node
// registered (./registration) on Debian 12 hosts, which cannot run kubelet v1.36.
// `up --kubernetes` runs these in order; the program then deploys ovnkube through the API server
// and the kubelets run its pods.
import * as fs from "node:fs";
import * as path from "node:path";
import { buildKubeconfig, KubeClient } from "../kubeclient";
import { LAB_DIR_MOUNT } from "./holder";
import { startControlPlane, type ControlPlane } from "./kube";
import { labBinaries } from "./kube/labBinaries";
import { KUBERNETES_RELEASE } from "./labReleases";
import {
    DEFAULT_OVN_KUBERNETES_RELEASE,
    OVN_KUBERNETES_RELEASES,
    checkOvnKubernetesRelease,
    ovnKubernetesLabImage,
    type OvnKubernetesRelease,
} from "./labReleases";
import { startRegistration, type RunningRegistration } from "./registration";
import { down } from "./down";
import { DEFAULT_ID, stateDir } from "./names";
import { localRange } from "./stackFile";
import {
    DEFAULT_OS,
    clusterIpFamily,
    findHost,
    hasOwnRoot,
    hostIps,
    hostOs,
    saveCluster,
    type HostOs,
    type LocalCluster,
    type LocalHost,
} from "./state";
import { DEFAULT_IP_FAMILY } from "./ipFamily";
import { inHost } from "./hostfs";
import { up, type UpOptions } from "./up";
import { labNodeImages } from "./node/images";
import { hasImage, importImages, restartRealKubelet, startRealNode, stopRealKubelet, type RealNode } from "./node/start";
import { preloadImages } from "./node/imageStore";

/**
 * Whether hosts of `os` run the upstream kubelet: kubelet v1.36 needs containerd 2, which every
 * own-root base carries (Debian 13's from Debian unstable: debianBase.ts). Debian 12 hosts share
 * this machine's root, whose Debian has containerd 1.6.
 */
export function runsKubelet(os: HostOs | undefined): boolean {
    return hasOwnRoot(os ?? DEFAULT_OS);
}

/** kubeadm's label for control-plane nodes; a kubelet's own --node-labels may not set it. */
const CONTROL_PLANE_LABEL = "node-role.kubernetes.io/control-plane";

/** The lab directory's folders of the real kubelet's binary and the OCI archives its containerd imports. */
const NODE_BIN_DIR = "bin";
const OCI_DIR = "oci";

/** Where cluster `id` keeps its lab directory on this machine. */
const labDirOf = (id: string) => path.join(stateDir(id), "lab");

/** Hard-links `source` to `target` when on the same filesystem, else copies it. */
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

/**
 * The lab directory of cluster `id`: the kubelet's binary and the images of `release` for hosts
 * that run the kubelet, nothing for hosts that only register. Made before the hosts start, since
 * they bind-mount it.
 */
export async function prepareLabDir(
    id: string,
    release: OvnKubernetesRelease,
    kubelet: boolean,
    log?: (line: string) => void,
): Promise<{ dir: string; node?: RealNodeFiles }> {
    const dir = labDirOf(id);
    fs.mkdirSync(dir, { recursive: true });
    return { dir, node: kubelet ? await prepareNodeFiles(dir, release, log) : undefined };
}

/** The real kubelet's files as the hosts see them. */
export interface RealNodeFiles {
    kubeletBin: string;
    imageArchives: string[];
}

/**
 * Each host's containerd gets the images of the cluster's release and of the releases it may be
 * upgraded to (newer ones), preloaded (node/imageStore.ts): no registry answers a kubelet here.
 */
async function prepareNodeFiles(dir: string, release: OvnKubernetesRelease, log?: (line: string) => void): Promise<RealNodeFiles> {
    const kubelet = await labBinaries(["kubelet"], KUBERNETES_RELEASE);
    const kubeletBin = path.posix.join(LAB_DIR_MOUNT, NODE_BIN_DIR, "kubelet");
    linkOrCopy(kubelet.kubelet, path.join(dir, NODE_BIN_DIR, "kubelet"), 0o755);
    const upgrades = OVN_KUBERNETES_RELEASES.slice(0, OVN_KUBERNETES_RELEASES.indexOf(release) + 1);
    return { kubeletBin, imageArchives: await linkNodeImages(dir, upgrades, log) };
}

/** The node images for `releases`, built when missing, linked into the lab directory; their paths as the hosts see them. */
async function linkNodeImages(dir: string, releases: readonly OvnKubernetesRelease[], log?: (line: string) => void): Promise<string[]> {
    return (await labNodeImages(releases, log)).map((image) => {
        const name = path.basename(image.archive);
        linkOrCopy(image.archive, path.join(dir, OCI_DIR, name), 0o644);
        return path.posix.join(LAB_DIR_MOUNT, OCI_DIR, name);
    });
}

/**
 * Puts the image of `release` on every node of the real kubelet that lacks it, as a node pulls it
 * when a pod first names it: the lab has no registry, so an upgrade's image must be there before
 * the up that names it (nodes carry the newer releases' images from the start).
 */
export async function pullReleaseImage(
    cluster: LocalCluster,
    lab: KubernetesLab,
    release: OvnKubernetesRelease,
    log?: (line: string) => void,
): Promise<void> {
    if (lab.nodes.length === 0) return;
    const archives = await linkNodeImages(labDirOf(cluster.id), [release], log);
    await Promise.all(
        lab.nodes.map(async (n) => {
            const host = findHost(cluster, n.nodeName);
            if (!(await hasImage(host, ovnKubernetesLabImage(release)))) await importImages(host, archives);
        }),
    );
}

export interface KubernetesLab {
    controlPlane: ControlPlane;
    /** The kubelets with their containerd (Debian 13 and unstable hosts). */
    nodes: RealNode[];
    /** The registration agents of hosts that run no kubelet (Debian 12). */
    registrations: RunningRegistration[];
}

export interface StartKubernetesOptions {
    /** One range per family, the primary first. */
    serviceSubnets: readonly string[];
    /** Hosts labelled as control-plane nodes (where ovnkube-master may run); default the first. */
    controlPlaneNodes?: string[];
    /** The kubelet's files in the lab directory; when absent, the hosts only register their Node. */
    realNode?: RealNodeFiles;
    log?: (line: string) => void;
}

/** Where kubeadm leaves a node's kubelet credentials, which ovnkube-node requests its own certificate with. */
export const KUBELET_KUBECONFIG = "/etc/kubernetes/kubelet.conf";
export const KUBELET_CLIENT_PEM = "/var/lib/kubelet/pki/kubelet-client-current.pem";

/**
 * The kubelet's credentials where kubeadm puts them, in the host's own root: its kubeconfig naming
 * the client certificate and key file, both root-only: the kubelet's, and what runs on the host
 * (ovnkube-node's certificate request).
 */
function installKubeletCredentials(
    host: LocalHost,
    server: string,
    caPem: string,
    credentials: { user: string; certPem: string; keyPem: string },
): void {
    const inRoot = (p: string) => inHost(host.holderPid, p);
    const write = (p: string, text: string) => {
        fs.mkdirSync(path.dirname(inRoot(p)), { recursive: true, mode: 0o700 });
        fs.writeFileSync(inRoot(p), text, { mode: 0o600 });
    };
    write(KUBELET_CLIENT_PEM, credentials.certPem + credentials.keyPem);
    write(KUBELET_KUBECONFIG, buildKubeconfig({ server, caPem, user: credentials.user, credentials: { certKeyFile: KUBELET_CLIENT_PEM } }));
}

/** Starts the control plane and a kubelet (or a registration) per host; the hosts must have been made with the lab directory. */
export async function startKubernetes(cluster: LocalCluster, opts: StartKubernetesOptions): Promise<KubernetesLab> {
    const log = opts.log ?? ((line: string) => console.log(line));
    const controlPlane = await startControlPlane(cluster, { serviceSubnets: opts.serviceSubnets, log });
    const admin = KubeClient.fromKubeconfig(controlPlane.adminKubeconfig.content);
    try {
        const registrations: RunningRegistration[] = [];
        const nodes: RealNode[] = [];
        log(
            `${opts.realNode ? "kubelet v1.36.2 and containerd" : "Node registration (no kubelet)"}: starting on ${cluster.hosts.map((h) => h.name).join(", ")}`,
        );
        const kubeletLogs = path.join(cluster.dir, "kubelet");
        const preloaded =
            opts.realNode !== undefined &&
            cluster.hosts.every((h) => hasOwnRoot(hostOs(h))) &&
            (await preloadImages(cluster.hosts, opts.realNode.imageArchives, kubeletLogs));
        await Promise.all(
            cluster.hosts.map(async (h) => {
                const credentials = await controlPlane.nodeCredentials(h.name);
                if (hasOwnRoot(hostOs(h))) installKubeletCredentials(h, controlPlane.apiServerUrl, controlPlane.caPem, credentials);
                if (!opts.realNode) {
                    registrations.push(await startRegistration(cluster, h, credentials.kubeconfigPath));
                    return;
                }
                if (!hasOwnRoot(hostOs(h)))
                    throw new Error(
                        `host ${h.name} runs on this machine's root (${hostOs(h)}): the real kubelet needs hosts with their own root (debian13, debian-sid)`,
                    );
                nodes.push(
                    await startRealNode({
                        clusterId: cluster.id,
                        host: h,
                        caPem: controlPlane.caPem,
                        kubeconfig: KUBELET_KUBECONFIG,
                        nodeIps: hostIps(cluster, h),
                        ...opts.realNode,
                        imageArchives: preloaded ? [] : opts.realNode.imageArchives,
                        logDir: path.join(kubeletLogs, h.name),
                        admin,
                    }),
                );
            }),
        );
        // As kubeadm does for its control-plane nodes: the cluster admin labels them.
        for (const node of opts.controlPlaneNodes ?? [cluster.hosts[0].name])
            await admin.patch(
                { apiVersion: "v1", kind: "Node", name: node },
                { metadata: { labels: { [CONTROL_PLANE_LABEL]: "" } } },
                "merge",
            );
        log(
            `kubernetes: API server ${controlPlane.apiServerUrl}, ${cluster.hosts.length} nodes registered; admin kubeconfig ${controlPlane.adminKubeconfig.path}`,
        );
        return { controlPlane, nodes, registrations };
    } finally {
        admin.close();
    }
}

export interface KubernetesUpOptions extends Omit<UpOptions, "labDir"> {
    /** One range per family, the primary first (default the local stack's, in the cluster's families). */
    serviceSubnets?: readonly string[];
    /** The ovn-kubernetes release whose binaries the hosts get (default DEFAULT_OVN_KUBERNETES_RELEASE). */
    ovnKubernetes?: OvnKubernetesRelease;
    log?: (line: string) => void;
}

/**
 * A local cluster with its Kubernetes: the lab directory, the hosts (which mount it), the control
 * plane and the kubelets. On a failure everything made so far is taken down again.
 */
export async function upWithKubernetes(opts: KubernetesUpOptions): Promise<{ cluster: LocalCluster; kubernetes: KubernetesLab }> {
    const id = opts.id ?? DEFAULT_ID;
    const release = checkOvnKubernetesRelease(opts.ovnKubernetes ?? DEFAULT_OVN_KUBERNETES_RELEASE);
    // A registered Node reports one InternalIP; only the kubelet reports one per family.
    if ((opts.ipFamily ?? DEFAULT_IP_FAMILY) !== DEFAULT_IP_FAMILY && !runsKubelet(opts.os))
        throw new Error(
            `ip family ${opts.ipFamily} needs hosts that run the kubelet (os debian13 or debian-sid), not ${opts.os ?? DEFAULT_OS}`,
        );
    const lab = await prepareLabDir(id, release, runsKubelet(opts.os), opts.log);
    const cluster = await up({ ...opts, labDir: lab.dir });
    try {
        cluster.ovnKubernetes = { release, image: ovnKubernetesLabImage(release), kubelet: lab.node !== undefined };
        saveCluster(cluster);
        const kubernetes = await startKubernetes(cluster, {
            serviceSubnets: opts.serviceSubnets ?? localRange(clusterIpFamily(cluster), "serviceSubnet"),
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
 * containers it ran stopped.
 */
export async function stopNodeKubelet(cluster: LocalCluster, lab: KubernetesLab, node: string): Promise<void> {
    await stopRealKubelet(findHost(cluster, node), kubeletOf(cluster, lab, node));
}

function kubeletOf(cluster: LocalCluster, lab: KubernetesLab, node: string): RealNode {
    const real = lab.nodes.find((n) => n.nodeName === node);
    if (!real) throw new Error(`no kubelet runs for node ${node} of local cluster ${cluster.id}`);
    return real;
}

/** Starts the kubelet of `node` again (it registers its Node anew if it was deleted), and records it in `lab`. */
export async function restartNodeKubelet(cluster: LocalCluster, lab: KubernetesLab, node: string): Promise<void> {
    const real = kubeletOf(cluster, lab, node);
    const admin = KubeClient.fromKubeconfig(lab.controlPlane.adminKubeconfig.content);
    try {
        lab.nodes[lab.nodes.indexOf(real)] = await restartRealKubelet(findHost(cluster, node), real, admin);
    } finally {
        admin.close();
    }
}
