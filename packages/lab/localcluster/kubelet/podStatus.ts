// A pod's status as the kubelet reports it: phase (pkg/kubelet/kubelet_pods.go getPhase) and the
// conditions it owns (pkg/kubelet/status/generate.go), from the containers' statuses. Conditions of
// other owners stay untouched: the status is sent as a strategic merge patch keyed by type. Pure.
import type { ContainerStatus, Pod, PodCondition, PodStatus } from "./types";

export type PodPhase = "Pending" | "Running" | "Succeeded" | "Failed";

export interface RuntimeStatus {
    initContainerStatuses: ContainerStatus[];
    containerStatuses: ContainerStatus[];
    /** Sandbox created and its network configured (PodReadyToStartContainers). */
    sandboxReady: boolean;
    hostIPs: readonly string[];
    podIPs: readonly string[];
    startTime: string;
}

const byName = (statuses: readonly ContainerStatus[], name: string) => statuses.find((s) => s.name === name);
/** Go's fmt of a []string: `[a b]`. */
const goList = (names: readonly string[]) => `[${names.join(" ")}]`;

/** "containers with unknown status: [a], containers with <state> status: [b c]", or "" when both are empty. */
function listMessage(unknown: readonly string[], state: string, names: readonly string[]): string {
    return [
        ...(unknown.length ? [`containers with unknown status: ${goList(unknown)}`] : []),
        ...(names.length ? [`containers with ${state} status: ${goList(names)}`] : []),
    ].join(", ");
}

export function podPhase(pod: Pod, rt: Pick<RuntimeStatus, "initContainerStatuses" | "containerStatuses">): PodPhase {
    const spec = pod.spec!;
    const policy = spec.restartPolicy ?? "Always";
    let pendingInit = 0;
    let failedInit = 0;
    for (const c of spec.initContainers ?? []) {
        const s = byName(rt.initContainerStatuses, c.name);
        if (!s?.state || s.state.running) pendingInit++;
        else if (s.state.terminated) failedInit += s.state.terminated.exitCode !== 0 ? 1 : 0;
        else if (s.lastState?.terminated) failedInit += s.lastState.terminated.exitCode !== 0 ? 1 : 0;
        else pendingInit++;
    }
    if (failedInit > 0 && policy === "Never") return "Failed";

    let unknown = 0;
    let running = 0;
    let waiting = 0;
    let stopped = 0;
    let succeeded = 0;
    for (const c of spec.containers) {
        const s = byName(rt.containerStatuses, c.name);
        if (!s?.state) unknown++;
        else if (s.state.running) running++;
        else if (s.state.terminated) {
            stopped++;
            if (s.state.terminated.exitCode === 0) succeeded++;
        } else if (s.state.waiting) {
            if (s.lastState?.terminated) stopped++;
            else waiting++;
        } else unknown++;
    }
    if ((pendingInit > 0 && running + stopped === 0) || waiting > 0) return "Pending";
    if (running > 0 && unknown === 0) return "Running";
    if (running === 0 && stopped > 0 && unknown === 0) {
        if (policy === "Always") return "Running";
        if (stopped === succeeded) return "Succeeded";
        return policy === "Never" ? "Failed" : "Running";
    }
    return "Pending";
}

function initializedCondition(pod: Pod, rt: RuntimeStatus, phase: PodPhase): PodCondition {
    const started = rt.containerStatuses.some((s) => s.state?.running || s.state?.terminated || s.lastState?.terminated);
    if (started) return { type: "Initialized", status: "True" };
    const unknown: string[] = [];
    const incomplete: string[] = [];
    for (const c of pod.spec?.initContainers ?? []) {
        const s = byName(rt.initContainerStatuses, c.name);
        if (!s) unknown.push(c.name);
        else if (s.state?.terminated?.exitCode !== 0) incomplete.push(c.name);
    }
    if (phase === "Succeeded" && unknown.length === 0) return { type: "Initialized", status: "True", reason: "PodCompleted" };
    const message = listMessage(unknown, "incomplete", incomplete);
    if (!message) return { type: "Initialized", status: "True" };
    return { type: "Initialized", status: "False", reason: "ContainersNotInitialized", message };
}

function containersReadyCondition(pod: Pod, rt: RuntimeStatus, phase: PodPhase): PodCondition {
    const unknown: string[] = [];
    const unready: string[] = [];
    for (const c of pod.spec!.containers) {
        const s = byName(rt.containerStatuses, c.name);
        if (!s) unknown.push(c.name);
        else if (!s.ready) unready.push(c.name);
    }
    if (phase === "Succeeded" && unknown.length === 0) return { type: "ContainersReady", status: "False", reason: "PodCompleted" };
    const message = listMessage(unknown, "unready", unready);
    if (!message) return { type: "ContainersReady", status: "True" };
    return { type: "ContainersReady", status: "False", reason: "ContainersNotReady", message };
}

/** Keeps a condition's lastTransitionTime while its status does not change, as the status manager does. */
function withTransitionTimes(conditions: PodCondition[], old: readonly PodCondition[], now: string): PodCondition[] {
    return conditions.map((c) => {
        const prev = old.find((o) => o.type === c.type);
        return { ...c, lastTransitionTime: prev && prev.status === c.status ? prev.lastTransitionTime : now };
    });
}

/** The status the kubelet reports for a pod (the fields it owns). */
export function podStatus(pod: Pod, rt: RuntimeStatus, now: string): PodStatus {
    const phase = podPhase(pod, rt);
    const containersReady = containersReadyCondition(pod, rt, phase);
    const ready: PodCondition = { ...containersReady, type: "Ready" };
    const conditions: PodCondition[] = [
        { type: "PodReadyToStartContainers", status: rt.sandboxReady ? "True" : "False" },
        initializedCondition(pod, rt, phase),
        ready,
        containersReady,
        { type: "PodScheduled", status: "True" },
    ];
    const status: PodStatus = {
        phase,
        conditions: withTransitionTimes(conditions, pod.status?.conditions ?? [], now),
        hostIP: rt.hostIPs[0],
        hostIPs: rt.hostIPs.map((ip) => ({ ip })),
        startTime: rt.startTime,
        containerStatuses: rt.containerStatuses,
    };
    if (rt.podIPs.length > 0) {
        status.podIP = rt.podIPs[0];
        status.podIPs = rt.podIPs.map((ip) => ({ ip }));
    }
    if ((pod.spec?.initContainers ?? []).length > 0) status.initContainerStatuses = rt.initContainerStatuses;
    return status;
}
