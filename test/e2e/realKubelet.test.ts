// End to end on the upstream kubelet v1.36.2 with containerd 2.1 and runc: 3 Debian unstable hosts,
// the program applied in ovnkube mode (ovn-kubernetes 1.3, interconnect) by the offline engine,
// its DaemonSets run from the lab's ovn-kubernetes image under the reference the manifests name.
// What only a real kubelet does: an exec into a demo pod (the API server streams it through the
// node's kubelet, over the WebSocket protocol kubectl exec speaks) pings a pod on another node, the
// logs of ovnkube-node are read from its kubelet as kubectl logs reads them, and a pod's memory
// limit is in its cgroup. And the workloads every ovnkube-mode test proves run on it as well, with
// ovnkube in local gateway mode (egress and NodePort traffic through each host's own routing and
// nftables, via ovn-k8s-mp0), and destroy leaves every host as it was before the first up.
import assert from "node:assert/strict";
import * as fs from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { after, before, test } from "node:test";
import { pollUntil } from "../../lab/kubeclient";
import { down } from "../../lab/localcluster";
import { KUBERNETES_VERSION } from "../../lab/localcluster/labReleases";
import { deploymentManifest, DEMO_APP_LABEL, removeDemoWorkloads } from "../../lab/localcluster/kubeWorkloads";
import { nodeCgroupRoot } from "../../lab/localcluster/node/cgroups";
import { WORKLOAD_IMAGE } from "../../lab/localcluster/node/images";
import { destroy } from "../../lab/offline/api";
import { bringUpOvnkubeLab, type OvnkubeLab } from "../../lab/scenarios/ovnkubeLab";
import { snapshotHost, type HostSnapshot } from "./support/hostSnapshot";
import { processesNamed } from "./support/hostDaemons";
import { proveWorkloads } from "./support/workloadProof";
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
const bareHosts = new Map<string, HostSnapshot>();
let pods: Array<{ name: string; node: string; ip: string; uid: string }>;

/** What the command printed, as `kubectl exec` prints it; an error naming its exit code and stderr otherwise. */
async function exec(pod: string, ...argv: string[]): Promise<string> {
    const { stdout, stderr, exitCode } = await lab.admin.exec({ namespace: "default", name: pod }, argv);
    assert.equal(exitCode, 0, `${argv.join(" ")} in ${pod} exited ${exitCode}:\n${stdout}${stderr}`);
    return stdout;
}

before(async () => {
    await phase("bring-up and apply", async () => {
        const { lab: l, first } = await bringUpOvnkubeLab(
            { id: ID, hosts: 3, os: "debian-sid", workDir, stack: { ovnkube: { gatewayMode: "local" } } },
            async (bare) => {
                for (const h of bare.cluster.hosts) bareHosts.set(h.name, await snapshotHost(bare.cluster, h.name));
            },
        );
        lab = l;
        assert.equal(first.ok, true, first.error);
    });
    pods = await phase("demo Deployment", async () => {
        await lab.admin.create(
            deploymentManifest({ name: DEMO, replicas: 3, command: ["sleep", "3600"], image: WORKLOAD_IMAGE, memoryLimit: MEMORY_LIMIT }),
        );
        return pollUntil(
            async () => {
                const list = (await lab.admin.list("v1", "Pod", {
                    namespace: "default",
                    labelSelector: `${DEMO_APP_LABEL}=${DEMO}`,
                })) as unknown as PodView[];
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

test("an exec into a demo pod pings a pod on another node", async () => {
    const [from, to] = [pods[0], pods.find((p) => p.node !== pods[0].node)!];
    const out = await exec(from.name, "ping", "-c", "3", "-W", "5", to.ip);
    assert.match(
        out,
        /3 packets transmitted, 3 packets received, 0% packet loss/,
        `${from.name} (${from.node}) to ${to.name} (${to.node}, ${to.ip}):\n${out}`,
    );
});

test("an exec's failure comes back as the command's exit code", async () => {
    const { exitCode, stderr } = await lab.admin.exec({ namespace: "default", name: pods[0].name }, ["cat", "/no/such/file"]);
    assert.equal(exitCode, 1);
    assert.match(stderr, /No such file/);
});

test("the logs of ovnkube-node show its start", async () => {
    const node = lab.cluster.hosts[0].name;
    const [pod] = (await lab.admin.list("v1", "Pod", {
        namespace: "ovn-kubernetes",
        fieldSelector: `spec.nodeName=${node}`,
        labelSelector: "app=ovnkube-node",
    })) as unknown as PodView[];
    assert.ok(pod, `no ovnkube-node pod on ${node}`);
    const log = await lab.admin.logs({ namespace: "ovn-kubernetes", name: pod.metadata.name, container: "ovnkube-controller" });
    assert.ok(
        log.includes(NODE_STARTED),
        `${pod.metadata.name}'s log lacks "${NODE_STARTED}"; its first lines:\n${log.split("\n").slice(0, 10).join("\n")}`,
    );
});

test("a pod with a memory limit gets it in its cgroup", async () => {
    const pod = pods[0];
    // As the container sees it, and as its node's pod cgroup holds it (the kubelet's cgroup root on this machine).
    assert.equal(Number((await exec(pod.name, "cat", "/sys/fs/cgroup/memory/memory.limit_in_bytes")).trim()), MEMORY_LIMIT_BYTES);
    const podCgroup = path.join(
        "/sys/fs/cgroup/memory",
        nodeCgroupRoot(ID, pod.node),
        "kubepods",
        "burstable",
        `pod${pod.uid}`,
        "memory.limit_in_bytes",
    );
    assert.equal(Number(fs.readFileSync(podCgroup, "utf8").trim()), MEMORY_LIMIT_BYTES);
});

test("in local gateway mode, the workloads the other ovnkube tests prove run on it: planned addresses, every pair pings, TCP, ClusterIP and NodePort, SNAT", async () => {
    assert.equal(lab.model.kube.gatewayMode, "local");
    const pods = await proveWorkloads(
        lab,
        lab.model,
        { spread: "spread", server: "server" },
        lab.cluster.hosts.map((h) => h.name),
    );
    assert.equal(pods.length, lab.cluster.hosts.length + 1);
});

test("in local gateway mode, destroy leaves every host as it was before the first up", async () => {
    await removeDemoWorkloads(lab.admin, lab.cluster, [], [{ name: "server" }], [{ name: DEMO }, { name: "spread" }, { name: "server" }]);
    const r = await phase("destroy", () => destroy(lab.offline));
    assert.equal(r.ok, true, r.error);
    assert.deepEqual(processesNamed(lab.cluster, ["ovnkube", "ovn-northd", "ovn-controller"]), []);
    for (const host of lab.cluster.hosts) assert.deepEqual(await snapshotHost(lab.cluster, host.name), bareHosts.get(host.name), host.name);
});
