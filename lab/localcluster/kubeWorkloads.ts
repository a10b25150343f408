// The lab's own workloads on an ovnkube cluster, through the Kubernetes API as a user runs them:
// Deployments whose pods the scheduler spreads one per node, Pods pinned to a node (spec.nodeName,
// so no scheduling decision moves them), a ClusterIP Service in front of some, and the lab's way
// into a pod's network namespace, which containerd names cni-<uuid> (./node/podNetwork). The manifests and the reading of a Pod's status are pure; the rest talks to
// the API server or enters the hosts.
import * as fs from "node:fs";
import * as path from "node:path";
import { KubeClient, pollUntil, type KubeObject } from "../kubeclient";
import { inHost } from "./hostfs";
import { enterableHost } from "./exec";
import { findPodNetwork, POD_IFNAME } from "./node/podNetwork";
import { WORKLOAD_IMAGE } from "./node/images";
import { txChecksumOff } from "./links";
import { clusterNames } from "./names";
import { keepKernelOffPort, releaseGonePorts } from "./podPorts";
import { deleteNetns, netnsInode } from "./namespaces";
import type { PodRef } from "./pods";
import { check, run, type RunOptions, type RunResult } from "./run";
import type { LocalCluster } from "./state";
import { PATTERNS } from "@ovn-kubernetes-as-code/cluster/values";

/** The image the demo's pods run unless told: the lab's workload image (busybox's sh, ping, nc). */
export const DEMO_IMAGE = WORKLOAD_IMAGE;
export const DEMO_NAMESPACE = "default";

function checkName(what: string, value: string): string {
    if (!PATTERNS.nodeName.re.test(value))
        throw new Error(`${what} ${JSON.stringify(value)} is not a DNS-1123 label (lower-case letters, digits and '-', at most 63)`);
    return value;
}

export interface DemoPodSpec {
    name: string;
    /** The node it runs on (spec.nodeName). */
    node: string;
    /** The container's command. */
    command: string[];
    labels?: Record<string, string>;
    namespace?: string;
    /** Default DEMO_IMAGE. */
    image?: string;
}

/** A Pod bound to its node, one container running `command`. Pure. */
export function podManifest(spec: DemoPodSpec): KubeObject {
    if (spec.command.length === 0) throw new Error(`pod ${spec.name}: command is empty`);
    for (const [key, value] of Object.entries(spec.labels ?? {})) checkName(`label ${key} value`, value);
    return {
        apiVersion: "v1",
        kind: "Pod",
        metadata: { name: checkName("pod name", spec.name), namespace: spec.namespace ?? DEMO_NAMESPACE, labels: spec.labels ?? {} },
        spec: {
            nodeName: checkName("node name", spec.node),
            // The demo's processes keep no state worth a graceful stop: removal stays quick.
            terminationGracePeriodSeconds: 1,
            containers: [{ name: "main", image: spec.image ?? DEMO_IMAGE, command: spec.command }],
        },
    };
}

export interface DemoDeploymentSpec {
    name: string;
    replicas: number;
    command: string[];
    namespace?: string;
    /** Default DEMO_IMAGE. */
    image?: string;
    /** A memory limit for the container, e.g. `48Mi`. */
    memoryLimit?: string;
}

/** The label every pod of a demo Deployment carries (its selector) and the Service selects on. */
export const DEMO_APP_LABEL = "app";

/**
 * A Deployment whose pods the scheduler puts on distinct nodes (required anti-affinity on the
 * hostname among its own pods), one container running `command`. Pure.
 */
export function deploymentManifest(spec: DemoDeploymentSpec): KubeObject {
    if (spec.command.length === 0) throw new Error(`deployment ${spec.name}: command is empty`);
    if (!Number.isInteger(spec.replicas) || spec.replicas < 1)
        throw new Error(`deployment ${spec.name}: replicas ${spec.replicas} is not a positive integer`);
    const labels = { [DEMO_APP_LABEL]: checkName("deployment name", spec.name) };
    return {
        apiVersion: "apps/v1",
        kind: "Deployment",
        metadata: { name: spec.name, namespace: spec.namespace ?? DEMO_NAMESPACE, labels },
        spec: {
            replicas: spec.replicas,
            selector: { matchLabels: labels },
            template: {
                metadata: { labels },
                spec: {
                    affinity: {
                        podAntiAffinity: {
                            requiredDuringSchedulingIgnoredDuringExecution: [
                                { labelSelector: { matchLabels: labels }, topologyKey: "kubernetes.io/hostname" },
                            ],
                        },
                    },
                    terminationGracePeriodSeconds: 1,
                    containers: [
                        {
                            name: "main",
                            image: spec.image ?? DEMO_IMAGE,
                            command: spec.command,
                            ...(spec.memoryLimit ? { resources: { limits: { memory: spec.memoryLimit } } } : {}),
                        },
                    ],
                },
            },
        },
    };
}

export interface ClusterIpServiceSpec {
    name: string;
    selector: Record<string, string>;
    port: number;
    targetPort: number;
    namespace?: string;
    /** NodePort: also reachable at every node's address on the port the API server picks. */
    type?: "ClusterIP" | "NodePort";
    /** RequireDualStack: a ClusterIP of each family (default: the cluster's primary family only). */
    ipFamilyPolicy?: "SingleStack" | "PreferDualStack" | "RequireDualStack";
}

/** A TCP ClusterIP (or NodePort) Service: ovnkube turns it into a load balancer on every node switch (and gateway). Pure. */
export function clusterIpServiceManifest(spec: ClusterIpServiceSpec): KubeObject {
    for (const [what, port] of [
        ["port", spec.port],
        ["targetPort", spec.targetPort],
    ] as const)
        if (!Number.isInteger(port) || port < 1 || port > 65535) throw new Error(`service ${spec.name}: ${what} ${port} is not a TCP port`);
    return {
        apiVersion: "v1",
        kind: "Service",
        metadata: { name: checkName("service name", spec.name), namespace: spec.namespace ?? DEMO_NAMESPACE },
        spec: {
            type: spec.type ?? "ClusterIP",
            ...(spec.ipFamilyPolicy && { ipFamilyPolicy: spec.ipFamilyPolicy }),
            selector: spec.selector,
            ports: [{ protocol: "TCP", port: spec.port, targetPort: spec.targetPort }],
        },
    };
}

export interface RunningPodStatus {
    uid: string;
    node: string;
    /** The primary family's address (status.podIP). */
    ip: string;
    /** One address per family, the primary first (status.podIPs): two in a dual-stack cluster. */
    ips: string[];
}

/** A Pod's uid, node and address once it runs with an address; otherwise why not yet. Pure. */
export function runningPodStatus(pod: KubeObject): RunningPodStatus | { waiting: string } {
    const status = (pod.status ?? {}) as {
        phase?: string;
        podIP?: string;
        podIPs?: Array<{ ip: string }>;
        containerStatuses?: Array<{ state?: Record<string, { reason?: string; message?: string }> }>;
    };
    const node = (pod.spec as { nodeName?: string } | undefined)?.nodeName;
    const waiting = status.containerStatuses
        ?.flatMap((c) => Object.values(c.state ?? {}).map((s) => [s.reason, s.message].filter(Boolean).join(": ")))
        .filter(Boolean);
    if (status.phase !== "Running" || !status.podIP || !node || !pod.metadata.uid) {
        return {
            waiting: `phase ${status.phase ?? "none"}, podIP ${status.podIP ?? "none"}${waiting?.length ? ` (${waiting.join("; ")})` : ""}`,
        };
    }
    return { uid: pod.metadata.uid, node, ip: status.podIP, ips: status.podIPs?.map((p) => p.ip) ?? [status.podIP] };
}

/** A running demo pod and where its network namespace is. */
export interface KubePod extends RunningPodStatus {
    namespace: string;
    name: string;
    /** The namespace as a path in the host (CNI_NETNS). */
    netnsPath: string;
    /** The host's holder process: the way into the host's mount namespace, where netnsPath exists. */
    holderPid: number;
}

/** How the lab's checks (./checks, ./pods `ping`) name the pod: its network namespace is exposed under that name. */
export function podRef(pod: KubePod): PodRef {
    return { node: pod.node, namespace: pod.namespace, pod: pod.name };
}

/** Waits, bounded, until the Pod runs with an address; the timeout names the last status seen. */
export async function waitPodRunning(client: KubeClient, namespace: string, name: string, timeoutMs: number): Promise<RunningPodStatus> {
    return pollUntil(
        async () => {
            const status = runningPodStatus(await client.get({ apiVersion: "v1", kind: "Pod", namespace, name }));
            if ("waiting" in status) throw new Error(status.waiting);
            return status;
        },
        { timeoutMs, intervalMs: 500, what: `pod ${namespace}/${name} to run with an address` },
    );
}

/**
 * Runs argv in the pod's network namespace with the host's files (the host's tools, whichever
 * image the pod runs): what the lab's checks need of a pod, its address as the network sees it.
 */
export function kubePodExec(pod: KubePod, argv: readonly string[], opts?: RunOptions): Promise<RunResult> {
    return run(["nsenter", "-t", String(pod.holderPid), "-m", "-u", "--", "nsenter", `--net=${pod.netnsPath}`, "--", ...argv], opts);
}

/**
 * Makes the pod's network namespace reachable from this machine under the lab's pod namespace
 * name (a bind mount in /run/netns), so the lab's checks (ping matrix, TCP exchange reporting the
 * source address seen, SNAT) run in it unchanged, and `down` removes it with the cluster.
 */
export async function exposePodNetns(cluster: LocalCluster, pod: KubePod): Promise<PodRef> {
    const name = labNetnsName(cluster, pod);
    if (netnsInode(name) !== undefined) await deleteNetns(name);
    // What `ip netns attach` does for a process's namespace, for a namespace file of the host.
    const target = path.posix.join(IPROUTE2_NETNS_DIR, name);
    fs.mkdirSync(IPROUTE2_NETNS_DIR, { recursive: true });
    fs.closeSync(fs.openSync(target, "a"));
    await check(["mount", "--bind", inHost(pod.holderPid, pod.netnsPath), target]);
    return podRef(pod);
}

/** iproute2's directory of named network namespaces on this machine. */
const IPROUTE2_NETNS_DIR = "/run/netns";

const labNetnsName = (cluster: LocalCluster, pod: KubePod) => clusterNames(cluster.id).podNetns(pod.node, pod.namespace, pod.name);

/**
 * Creates the Pod (in the lab's demo image unless told), waits for it to run, finds its network namespace, turns off transmit checksum offload
 * on its eth0 (the lab's datapath is userspace OVS, which forwards packets whose checksums the
 * kernel left to the NIC: without this, ping works but TCP segments arrive with bad checksums
 * and are dropped), keeps the host's kernel off the veth's host end (./podPorts) and exposes its
 * namespace to the lab's checks.
 */
export async function startDemoPod(client: KubeClient, cluster: LocalCluster, spec: DemoPodSpec, timeoutMs = 90_000): Promise<KubePod> {
    const manifest = podManifest(spec);
    const namespace = manifest.metadata.namespace!;
    await client.create(manifest);
    return attachDemoPod(cluster, namespace, spec.name, await waitPodRunning(client, namespace, spec.name, timeoutMs));
}

/** A running pod made ready for the lab's checks (see startDemoPod). */
async function attachDemoPod(cluster: LocalCluster, namespace: string, name: string, running: RunningPodStatus): Promise<KubePod> {
    const host = enterableHost(cluster, running.node);
    const { netnsPath, hostIfname } = await findPodNetwork(host, running.ip);
    const pod: KubePod = { ...running, namespace, name, netnsPath, holderPid: host.holderPid };
    await exposePodNetns(cluster, pod);
    await txChecksumOff(POD_IFNAME, labNetnsName(cluster, pod));
    await keepKernelOffPort(cluster, pod.node, hostIfname);
    return pod;
}

/**
 * Creates the Deployment, waits until all its replicas run with an address (placed by the
 * scheduler, one per node), and makes each ready for the lab's checks; sorted by node.
 */
export async function startDemoDeployment(
    client: KubeClient,
    cluster: LocalCluster,
    spec: DemoDeploymentSpec,
    timeoutMs = 120_000,
): Promise<KubePod[]> {
    const manifest = deploymentManifest(spec);
    const namespace = manifest.metadata.namespace!;
    await client.create(manifest);
    const running = await pollUntil(
        async () => {
            const pods = (await client.list("v1", "Pod", { namespace, labelSelector: `${DEMO_APP_LABEL}=${spec.name}` })).filter(
                (p) => !p.metadata.deletionTimestamp,
            );
            const states = pods.map((p) => ({ name: p.metadata.name!, status: runningPodStatus(p) }));
            const waiting = states
                .filter((p) => "waiting" in p.status)
                .map((p) => `${p.name}: ${(p.status as { waiting: string }).waiting}`);
            if (pods.length !== spec.replicas || waiting.length > 0)
                throw new Error(`${pods.length} of ${spec.replicas} pods; ${waiting.join("; ") || "none waiting"}`);
            return states.map((p) => ({ name: p.name, status: p.status as RunningPodStatus }));
        },
        { timeoutMs, intervalMs: 500, what: `deployment ${namespace}/${spec.name}'s ${spec.replicas} pods to run with an address` },
    );
    const pods = await Promise.all(running.map((p) => attachDemoPod(cluster, namespace, p.name, p.status)));
    return pods.sort((a, b) => a.node.localeCompare(b.node));
}

/** Creates the Service and returns its ClusterIP. */
export async function createClusterIpService(client: KubeClient, spec: ClusterIpServiceSpec): Promise<string> {
    return (await createService(client, spec)).clusterIp;
}

/** Creates the Service and returns its ClusterIPs, one per family it got (the primary first). */
export async function createClusterIpsService(client: KubeClient, spec: ClusterIpServiceSpec): Promise<string[]> {
    return (await createService(client, spec)).clusterIps;
}

/** A NodePort Service: its ClusterIP and the node port the API server gave it. */
export async function createNodePortService(
    client: KubeClient,
    spec: Omit<ClusterIpServiceSpec, "type">,
): Promise<{ clusterIp: string; nodePort: number }> {
    const { clusterIp, nodePort } = await createService(client, { ...spec, type: "NodePort" });
    if (!nodePort) throw new Error(`service ${spec.name} got no node port`);
    return { clusterIp, nodePort };
}

async function createService(
    client: KubeClient,
    spec: ClusterIpServiceSpec,
): Promise<{ clusterIp: string; clusterIps: string[]; nodePort?: number }> {
    const created = await client.create(clusterIpServiceManifest(spec));
    const { clusterIP, clusterIPs, ports } = (created.spec ?? {}) as {
        clusterIP?: string;
        clusterIPs?: string[];
        ports?: Array<{ nodePort?: number }>;
    };
    if (!clusterIP || clusterIP === "None")
        throw new Error(`service ${spec.name} got no ClusterIP (is the API server's --service-cluster-ip-range set?)`);
    return { clusterIp: clusterIP, clusterIps: clusterIPs ?? [clusterIP], nodePort: ports?.[0]?.nodePort };
}

/**
 * Deletes the demo's Deployments, pods and services and waits, bounded, until the API server has
 * let them go (the Deployments' pods included).
 */
export async function removeDemoWorkloads(
    client: KubeClient,
    cluster: LocalCluster,
    pods: KubePod[],
    services: Array<{ name: string; namespace?: string }>,
    deployments: Array<{ name: string; namespace?: string }> = [],
    timeoutMs = 60_000,
): Promise<void> {
    pods = [...pods];
    for (const pod of pods) await deleteNetns(labNetnsName(cluster, pod));
    // The Deployments' pods too, found by their label, exposed or not.
    for (const d of deployments) {
        const namespace = d.namespace ?? DEMO_NAMESPACE;
        for (const p of await client.list("v1", "Pod", { namespace, labelSelector: `${DEMO_APP_LABEL}=${d.name}` })) {
            const node = (p.spec as { nodeName?: string } | undefined)?.nodeName;
            if (node) await deleteNetns(clusterNames(cluster.id).podNetns(node, namespace, p.metadata.name!));
            pods.push({ namespace, name: p.metadata.name! } as KubePod);
        }
    }
    const refs = [
        ...deployments.map((d) => ({ apiVersion: "apps/v1", kind: "Deployment", namespace: d.namespace ?? DEMO_NAMESPACE, name: d.name })),
        ...pods.map((p) => ({ apiVersion: "v1", kind: "Pod", namespace: p.namespace, name: p.name })),
        ...services.map((s) => ({ apiVersion: "v1", kind: "Service", namespace: s.namespace ?? DEMO_NAMESPACE, name: s.name })),
    ];
    for (const ref of refs) await client.delete(ref);
    for (const ref of refs) await client.waitUntilGone(ref, timeoutMs);
    for (const host of cluster.hosts) await releaseGonePorts(cluster, host.name);
}
