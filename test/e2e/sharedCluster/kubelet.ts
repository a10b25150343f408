// What only the upstream kubelet (v1.36.2, containerd 2.1, runc) does, proven on the shared cluster:
// an exec into a pod (the API server streams it through the node's kubelet, over the WebSocket
// protocol kubectl exec speaks) pings a pod on another node and returns a failing command's exit
// code; the logs of ovnkube-node are read from its kubelet as kubectl logs reads them; a pod's
// memory limit is in its cgroup.
import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { before, describe, test } from "node:test";
import { KUBERNETES_VERSION } from "../../../lab/localcluster/labReleases";
import { startDemoDeployment, type KubePod } from "../../../lab/localcluster/kubeWorkloads";
import { nodeCgroupRoot } from "../../../lab/localcluster/node/cgroups";
import type { FamilyLab } from "../support/familyProof";

/** The Deployment with a memory limit, for the workloads' removal. */
export const LIMITED = "limited";
const MEMORY_LIMIT = "48Mi";
const MEMORY_LIMIT_BYTES = 48 * 1024 * 1024;
/** ovnkube-node's line once its node side runs (go-controller/pkg/node/default_node_network_controller.go). */
const NODE_STARTED = "Starting the default node network controller";

type PodView = { metadata: { name: string; uid: string } };
type NodeView = { metadata: { name: string }; status: { nodeInfo: { kubeletVersion: string; containerRuntimeVersion: string } } };

/** The kubelet checks on the shared cluster's spread pods and one pod with a memory limit. */
export function kubeletChecks(family: () => FamilyLab): void {
    const lab = () => family().lab;

    /** What the command printed, as `kubectl exec` prints it; an error naming its exit code and stderr otherwise. */
    async function exec(pod: KubePod, ...argv: string[]): Promise<string> {
        const { stdout, stderr, exitCode } = await lab().admin.exec({ namespace: pod.namespace, name: pod.name }, argv);
        assert.equal(exitCode, 0, `${argv.join(" ")} in ${pod.name} exited ${exitCode}:\n${stdout}${stderr}`);
        return stdout;
    }

    describe("the upstream kubelet", () => {
        let limited: KubePod;
        before(async () => {
            [limited] = await startDemoDeployment(lab().admin, lab().cluster, {
                name: LIMITED,
                replicas: 1,
                command: ["sleep", "infinity"],
                memoryLimit: MEMORY_LIMIT,
            });
        });

        test("every node runs the upstream kubelet on containerd", async () => {
            const nodes = (await lab().admin.list("v1", "Node")) as unknown as NodeView[];
            assert.deepEqual(
                nodes.map((n) => [
                    n.metadata.name,
                    n.status.nodeInfo.kubeletVersion,
                    n.status.nodeInfo.containerRuntimeVersion.split("://")[0],
                ]),
                lab().cluster.hosts.map((h) => [h.name, KUBERNETES_VERSION, "containerd"]),
            );
        });

        test("an exec into a pod pings a pod on another node", async () => {
            const [from, to] = family().pods;
            const out = await exec(from, "ping", "-c", "3", "-W", "5", to.ip);
            assert.match(
                out,
                /3 packets transmitted, 3 packets received, 0% packet loss/,
                `${from.name} (${from.node}) to ${to.name} (${to.node}, ${to.ip}):\n${out}`,
            );
        });

        test("an exec's failure comes back as the command's exit code", async () => {
            const [pod] = family().pods;
            const { exitCode, stderr } = await lab().admin.exec({ namespace: pod.namespace, name: pod.name }, ["cat", "/no/such/file"]);
            assert.equal(exitCode, 1);
            assert.match(stderr, /No such file/);
        });

        test("the logs of ovnkube-node show its start", async () => {
            const node = lab().cluster.hosts[0].name;
            const [pod] = (await lab().admin.list("v1", "Pod", {
                namespace: "ovn-kubernetes",
                fieldSelector: `spec.nodeName=${node}`,
                labelSelector: "app=ovnkube-node",
            })) as unknown as PodView[];
            assert.ok(pod, `no ovnkube-node pod on ${node}`);
            const log = await lab().admin.logs({ namespace: "ovn-kubernetes", name: pod.metadata.name, container: "ovnkube-controller" });
            assert.ok(
                log.includes(NODE_STARTED),
                `${pod.metadata.name}'s log lacks "${NODE_STARTED}"; its first lines:\n${log.split("\n").slice(0, 10).join("\n")}`,
            );
        });

        test("a pod with a memory limit gets it in its cgroup", async () => {
            // As the container sees it, and as its node's pod cgroup holds it (the kubelet's cgroup root on this machine).
            assert.equal(Number((await exec(limited, "cat", "/sys/fs/cgroup/memory/memory.limit_in_bytes")).trim()), MEMORY_LIMIT_BYTES);
            const { metadata } = (await lab().admin.get({
                apiVersion: "v1",
                kind: "Pod",
                namespace: limited.namespace,
                name: limited.name,
            })) as unknown as PodView;
            const podCgroup = path.join(
                "/sys/fs/cgroup/memory",
                nodeCgroupRoot(lab().cluster.id, limited.node),
                "kubepods",
                "burstable",
                `pod${metadata.uid}`,
                "memory.limit_in_bytes",
            );
            assert.equal(Number(fs.readFileSync(podCgroup, "utf8").trim()), MEMORY_LIMIT_BYTES);
        });
    });
}
