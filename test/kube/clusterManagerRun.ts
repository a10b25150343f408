// What the tests against a real API server share: Nodes as kubelets register them, service-account
// tokens as the kubelet projects them, the program's objects applied as server-side apply sends
// them, and the real ovnkube v1.3.0 cluster manager run with the DaemonSet's own command line and
// its account's token.
import * as fs from "node:fs";
import * as path from "node:path";
import type { KubeClient, KubeObject } from "../../lab/kubeclient";
import type { ControlPlane } from "../../lab/localcluster/kube";
import { logTail, startInNetns } from "../../lab/localcluster/kube/daemon";
import { labBinary } from "../../lab/localcluster/kube/labBinaries";
import { ovnKubernetesLabRelease } from "../../lab/localcluster/labReleases";
import { isLiveProcess } from "../../lab/localcluster/namespaces";
import { loadCrds } from "../../components/kube/crds";
import { kubeManifests, manifestList } from "../../components/kube/manifests";
import { NODE_PLAN_APPLY } from "../../components/kube/nodeAnnotations";
import { CLUSTER_MANAGER_LOG } from "../../components/kube/ovnkubeArgs";
import type { Container } from "../../components/kube/objectTypes";
import type { KubeModel } from "../../components/model/types";
import { expandedCommand } from "./inspect";

export const APPLIER = "pulumi-kubernetes";
export const NAMESPACE = "ovn-kubernetes";

/** A Node as a kubelet registers it: capacity for the scheduler, masters labelled control-plane. */
export function registeredNode(name: string, master: boolean): KubeObject {
    const resources = { cpu: "4", memory: "8Gi", pods: "110" };
    return {
        apiVersion: "v1",
        kind: "Node",
        metadata: {
            name,
            labels: {
                "kubernetes.io/hostname": name,
                "kubernetes.io/os": "linux",
                ...(master ? { "node-role.kubernetes.io/control-plane": "" } : {}),
            },
            annotations: { "node.alpha.kubernetes.io/ttl": "0" },
        },
        status: { capacity: resources, allocatable: resources },
    };
}

/** A token of a service account from the TokenRequest API, as the kubelet projects it into the pods. */
export async function serviceAccountToken(admin: KubeClient, account: string): Promise<string> {
    const answer = await admin.transport.request<{ status: { token: string } }>(
        "POST",
        `/api/v1/namespaces/${NAMESPACE}/serviceaccounts/${account}/token`,
        {
            body: { apiVersion: "authentication.k8s.io/v1", kind: "TokenRequest", spec: { expirationSeconds: 3600 } },
        },
    );
    return answer.status.token;
}

/** The model's CRDs, then its objects, as the program applies them (the Nodes' plan with its own field manager). */
export async function applyAll(admin: KubeClient, m: KubeModel): Promise<void> {
    for (const crd of await loadCrds(m.crdUrls)) await admin.apply(crd as unknown as KubeObject, { fieldManager: APPLIER });
    for (const obj of manifestList(kubeManifests(m)))
        await admin.apply(obj as unknown as KubeObject, obj.kind === "Node" ? NODE_PLAN_APPLY : { fieldManager: APPLIER });
}

export interface ClusterManagerRun {
    pid: number;
    argv: string[];
    /** ovnkube's log file. */
    log: string;
    /** Why it stopped, with its logs' tails, or undefined while it runs. */
    exited: () => string | undefined;
}

/**
 * Starts ovnkube v1.3.0 with the control-plane DaemonSet's cluster-manager command line, in the
 * control plane's network namespace, as the cluster manager's account: the pod's service-account
 * files, as the kubelet projects them, found through the environment (the process runs outside a pod).
 */
export async function startClusterManager(cp: ControlPlane, admin: KubeClient, model: KubeModel, work: string): Promise<ClusterManagerRun> {
    fs.writeFileSync(path.join(work, "token"), await serviceAccountToken(admin, "ovnkube-cluster-manager"), { mode: 0o600 });
    fs.writeFileSync(path.join(work, "ca.crt"), cp.caPem);
    const log = path.join(work, "ovnkube-cluster-manager.log");
    const c: Container = kubeManifests(model).controlPlane.spec.template.spec.containers[0];
    if (c.name !== "ovnkube-cluster-manager") throw new Error(`the control plane's first container is ${c.name}`);
    const argv = expandedCommand(c, model.config, { node: "master-0", hostIP: "" }).map((arg) => (arg === CLUSTER_MANAGER_LOG ? log : arg));
    if (argv.some((a) => a.includes("$("))) throw new Error(`unexpanded: ${argv.join(" ")}`);
    argv[0] = await labBinary("ovnkube", ovnKubernetesLabRelease("1.3"));
    const stdout = path.join(work, "ovnkube-cluster-manager.stdout");
    const pid = startInNetns(
        cp.netns,
        ["env", `K8S_TOKEN_FILE=${path.join(work, "token")}`, `K8S_CACERT=${path.join(work, "ca.crt")}`, ...argv],
        stdout,
    );
    return { pid, argv, log, exited: () => (isLiveProcess(pid) ? undefined : `ovnkube exited:\n${logTail(log)}\n${logTail(stdout)}`) };
}
