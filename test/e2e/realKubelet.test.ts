// End to end on the upstream kubelet v1.36.2 with containerd 2.1 and runc: 3 Debian unstable hosts,
// the program applied in ovnkube mode (ovn-kubernetes 1.3, interconnect) by the offline engine,
// its DaemonSets run from the lab's ovn-kubernetes image under the reference the manifests name.
// What only a real kubelet does: `kubectl exec` into a demo pod (the API server streams through
// the node's kubelet) pings a pod on another node, `kubectl logs` of ovnkube-node reads the
// container's log from its kubelet, and a pod's memory limit is in its cgroup.
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import * as fs from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { after, before, test } from "node:test";
import { promisify } from "node:util";
import { pollUntil } from "../../packages/lab/kubeclient";
import { down } from "../../packages/lab/localcluster";
import { KUBERNETES_VERSION } from "../../packages/lab/localcluster/labReleases";
import { deploymentManifest, DEMO_APP_LABEL } from "../../packages/lab/localcluster/kubeWorkloads";
import { nodeCgroupRoot } from "../../packages/lab/localcluster/node/cgroups";
import { requireTools } from "../../packages/lab/localcluster/tools";
import { WORKLOAD_IMAGE } from "../../packages/lab/localcluster/node/images";
import { bringUpOvnkubeLab, type OvnkubeLab } from "./support/ovnkubeLab";
import { phase } from "./support/phase";

const ID = "kubreal";
const DEMO = "demo";
const MEMORY_LIMIT = "48Mi";
const MEMORY_LIMIT_BYTES = 48 * 1024 * 1024;
/** ovnkube-node's line once its node side runs (go-controller/pkg/node/default_node_network_controller.go). */
const NODE_STARTED = "Starting the default node network controller";

const workDir = fs.mkdtempSync(path.join(tmpdir(), "real-kubelet-"));
/** The fields of Pods and Nodes the test reads. */
type PodView = { metadata: { name: string; uid: string }; spec: { nodeName: string }; status: { phase?: string; podIP?: string } };
type NodeView = { metadata: { name: string }; status: { nodeInfo: { kubeletVersion: string; containerRuntimeVersion: string } } };

let lab: OvnkubeLab;
let pods: Array<{ name: string; node: string; ip: string; uid: string }>;

/** kubectl with the lab's admin kubeconfig; the output, or an error with kubectl's. */
async function kubectl(...args: string[]): Promise<string> {
    const env = { ...process.env, KUBECONFIG: lab.kubernetes.controlPlane.adminKubeconfig.path };
    try {
        return (await promisify(execFile)("kubectl", args, { env, timeout: 60_000 })).stdout;
    } catch (e) {
        const err = e as { stderr?: string; message: string };
        throw new Error(`kubectl ${args.join(" ")}: ${err.stderr || err.message}`);
    }
}

before(async () => {
    // The client every operator has; the test drives exec and logs through it, not through the project's own client.
    await requireTools(["kubectl"], "install kubectl, Kubernetes' command-line client");
    await phase("bring-up and apply", async () => {
        const { lab: l, first } = await bringUpOvnkubeLab({ id: ID, hosts: 3, os: "debian-sid", kubelet: "real", workDir });
        lab = l;
        assert.equal(first.ok, true, first.error);
    });
    pods = await phase("demo Deployment", async () => {
        await lab.admin.create(deploymentManifest({ name: DEMO, replicas: 3, command: ["sleep", "3600"], image: WORKLOAD_IMAGE, memoryLimit: MEMORY_LIMIT }));
        return pollUntil(
            async () => {
                const list = (await lab.admin.list("v1", "Pod", { namespace: "default", labelSelector: `${DEMO_APP_LABEL}=${DEMO}` })) as unknown as PodView[];
                const running = list.filter((p) => p.status.phase === "Running" && p.status.podIP);
                if (running.length < 3) return undefined;
                return running.map((p) => ({ name: p.metadata.name, node: p.spec.nodeName, ip: p.status.podIP!, uid: p.metadata.uid }));
            },
            { timeoutMs: 180_000, intervalMs: 1000, what: "the demo Deployment's 3 pods to run with addresses" },
        );
    });
});

after(async () => {
    lab?.admin.close();
    await down(ID);
    fs.rmSync(workDir, { recursive: true, force: true });
});

test("every node runs the upstream kubelet on containerd", async () => {
    const nodes = (await lab.admin.list("v1", "Node")) as unknown as NodeView[];
    assert.deepEqual(
        nodes.map((n) => [n.metadata.name, n.status.nodeInfo.kubeletVersion, n.status.nodeInfo.containerRuntimeVersion.split("://")[0]]),
        lab.cluster.hosts.map((h) => [h.name, KUBERNETES_VERSION, "containerd"]),
    );
});

test("kubectl exec into a demo pod pings a pod on another node", async () => {
    const [from, to] = [pods[0], pods.find((p) => p.node !== pods[0].node)!];
    const out = await kubectl("exec", from.name, "--", "ping", "-c", "3", "-W", "5", to.ip);
    assert.match(out, /3 packets transmitted, 3 packets received, 0% packet loss/, `${from.name} (${from.node}) to ${to.name} (${to.node}, ${to.ip}):\n${out}`);
});

test("kubectl logs of ovnkube-node shows its start", async () => {
    const node = lab.cluster.hosts[0].name;
    const [pod] = (await lab.admin.list("v1", "Pod", { namespace: "ovn-kubernetes", fieldSelector: `spec.nodeName=${node}`, labelSelector: "app=ovnkube-node" })) as unknown as PodView[];
    assert.ok(pod, `no ovnkube-node pod on ${node}`);
    const log = await kubectl("logs", "-n", "ovn-kubernetes", pod.metadata.name, "-c", "ovnkube-controller");
    assert.ok(log.includes(NODE_STARTED), `${pod.metadata.name}'s log lacks "${NODE_STARTED}"; its first lines:\n${log.split("\n").slice(0, 10).join("\n")}`);
});

test("a pod with a memory limit gets it in its cgroup", async () => {
    const pod = pods[0];
    // As the container sees it, and as its node's pod cgroup holds it (the kubelet's cgroup root on this machine).
    assert.equal(Number((await kubectl("exec", pod.name, "--", "cat", "/sys/fs/cgroup/memory/memory.limit_in_bytes")).trim()), MEMORY_LIMIT_BYTES);
    const podCgroup = path.join("/sys/fs/cgroup/memory", nodeCgroupRoot(ID, pod.node), "kubepods", "burstable", `pod${pod.uid}`, "memory.limit_in_bytes");
    assert.equal(Number(fs.readFileSync(podCgroup, "utf8").trim()), MEMORY_LIMIT_BYTES);
});
