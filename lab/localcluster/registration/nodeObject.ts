// The Node object a kubelet registers, its status and its Lease (pkg/kubelet/kubelet_node_status.go
// initialNode and the nodestatus setters; pkg/kubelet/nodelease), as a host that runs no container
// runtime reports them: never Ready. Pure.
import { KUBERNETES_VERSION } from "../labReleases";
import { microTime } from "./time";
import type { Lease, Node, NodeCondition } from "./types";

/** The version of the Kubernetes API this kubelet speaks: the lab's control plane. */
export const KUBELET_VERSION = KUBERNETES_VERSION;
/** What the node reports as its runtime (`<name>://<version>`): none. */
export const RUNTIME_VERSION = "none://0.0.0";
/** The kubelet's defaults: lease of 40 s renewed every 10 s, status every 10 s. */
export const LEASE_DURATION_SECONDS = 40;
export const HEARTBEAT_INTERVAL_MS = 10_000;

export interface NodeIdentity {
    name: string;
    internalIP: string;
    /** Labels beyond the kubelet's own (kubernetes.io/hostname, os, arch). */
    labels: Readonly<Record<string, string>>;
    capacity: Readonly<Record<string, string>>;
}

export interface NodeFacts {
    machineID: string;
    bootID: string;
    kernelVersion: string;
    osImage: string;
    architecture: string;
}

/** The kubernetes.io labels a kubelet may set on its own Node (k8s.io/kubelet/pkg/apis IsKubeletLabel). */
const KUBELET_LABELS = new Set([
    "kubernetes.io/hostname",
    "kubernetes.io/os",
    "kubernetes.io/arch",
    "beta.kubernetes.io/os",
    "beta.kubernetes.io/arch",
    "beta.kubernetes.io/instance-type",
    "node.kubernetes.io/instance-type",
    "topology.kubernetes.io/zone",
    "topology.kubernetes.io/region",
    "failure-domain.beta.kubernetes.io/zone",
    "failure-domain.beta.kubernetes.io/region",
]);
const inNamespace = (ns: string, suffix: string) => ns === suffix || ns.endsWith(`.${suffix}`);

/**
 * Why a label cannot come from the kubelet, or undefined: the NodeRestriction admission plugin
 * refuses node-restriction.kubernetes.io labels, and the kubelet itself refuses --node-labels in
 * the kubernetes.io and k8s.io namespaces outside its own set. Labels such as
 * node-role.kubernetes.io/control-plane are set with admin credentials, as kubeadm does.
 */
export function forbiddenLabelReason(key: string): string | undefined {
    const slash = key.indexOf("/");
    const ns = slash < 0 ? "" : key.slice(0, slash);
    if (inNamespace(ns, "node-restriction.kubernetes.io"))
        return "NodeRestriction refuses node-restriction.kubernetes.io labels from kubelets: they are for administrators";
    const isKube = inNamespace(ns, "kubernetes.io") || inNamespace(ns, "k8s.io");
    if (isKube && !KUBELET_LABELS.has(key) && !inNamespace(ns, "kubelet.kubernetes.io") && !inNamespace(ns, "node.kubernetes.io")) {
        return "a kubelet sets only its own kubernetes.io and k8s.io labels (hostname, os, arch, zone, region, instance type, kubelet.kubernetes.io/*, node.kubernetes.io/*): set this one with admin credentials, as kubeadm does";
    }
    return undefined;
}

export function nodeLabels(id: NodeIdentity, facts: NodeFacts): Record<string, string> {
    return {
        "beta.kubernetes.io/arch": facts.architecture,
        "beta.kubernetes.io/os": "linux",
        "kubernetes.io/arch": facts.architecture,
        "kubernetes.io/hostname": id.name,
        "kubernetes.io/os": "linux",
        ...id.labels,
    };
}

/**
 * What registration creates: with its status, as the kubelet creates it (initialNode sets the
 * status before the create). A Node without a Ready condition would have the node lifecycle
 * controller take off the not-ready taint admission put on, until the first heartbeat.
 */
export function initialNode(id: NodeIdentity, facts: NodeFacts, now: string): Node {
    return {
        apiVersion: "v1",
        kind: "Node",
        metadata: {
            name: id.name,
            labels: nodeLabels(id, facts),
            annotations: { "volumes.kubernetes.io/controller-managed-attach-detach": "true" },
        },
        spec: {},
        ...nodeStatusPatch(id, facts, [], now),
    };
}

/**
 * The kubelet's words when its runtime does not answer. These hosts have none: kubelet v1.36 needs
 * containerd 2, which Debian 12 does not ship, so their Node is registered and kept, never Ready.
 */
export const NO_RUNTIME_MESSAGE =
    "container runtime is down: this host registers its Node only (kubelet v1.36 needs containerd 2, which Debian 12 lacks)";

const CONDITIONS: ReadonlyArray<Omit<NodeCondition, "lastHeartbeatTime" | "lastTransitionTime">> = [
    { type: "MemoryPressure", status: "False", reason: "KubeletHasSufficientMemory", message: "kubelet has sufficient memory available" },
    { type: "DiskPressure", status: "False", reason: "KubeletHasNoDiskPressure", message: "kubelet has no disk pressure" },
    { type: "PIDPressure", status: "False", reason: "KubeletHasSufficientPID", message: "kubelet has sufficient PID available" },
    { type: "Ready", status: "False", reason: "KubeletNotReady", message: NO_RUNTIME_MESSAGE },
];

/** The status patch of one heartbeat; a condition keeps its transition time while its status holds. */
export function nodeStatusPatch(
    id: NodeIdentity,
    facts: NodeFacts,
    old: readonly NodeCondition[],
    now: string,
): { status: Node["status"] } {
    return {
        status: {
            conditions: CONDITIONS.map((c) => {
                const prev = old.find((o) => o.type === c.type);
                return {
                    ...c,
                    lastHeartbeatTime: now,
                    lastTransitionTime: prev && prev.status === c.status ? prev.lastTransitionTime : now,
                };
            }),
            addresses: [
                { type: "InternalIP", address: id.internalIP },
                { type: "Hostname", address: id.name },
            ],
            capacity: { ...id.capacity },
            allocatable: { ...id.capacity },
            daemonEndpoints: { kubeletEndpoint: { Port: 0 } },
            nodeInfo: {
                machineID: facts.machineID,
                systemUUID: facts.machineID,
                bootID: facts.bootID,
                kernelVersion: facts.kernelVersion,
                osImage: facts.osImage,
                containerRuntimeVersion: RUNTIME_VERSION,
                kubeletVersion: KUBELET_VERSION,
                kubeProxyVersion: "",
                operatingSystem: "linux",
                architecture: facts.architecture,
            },
        },
    };
}

/** The node's Lease, owned by its Node so that it goes when the Node goes. */
export function nodeLease(name: string, nodeUid: string, now: Date, existing?: Lease): Lease {
    return {
        apiVersion: "coordination.k8s.io/v1",
        kind: "Lease",
        metadata: {
            ...(existing?.metadata ?? {}),
            name,
            namespace: "kube-node-lease",
            ownerReferences: [{ apiVersion: "v1", kind: "Node", name, uid: nodeUid }],
        },
        spec: { ...(existing?.spec ?? {}), holderIdentity: name, leaseDurationSeconds: LEASE_DURATION_SECONDS, renewTime: microTime(now) },
    };
}
