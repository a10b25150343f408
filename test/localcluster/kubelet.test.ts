// The kubelet stand-in on a Debian 13 host of a local cluster, against the real control plane:
// the Node registers with its InternalIP and turns Ready once the host has a CNI configuration;
// a hostNetwork pod runs with exactly what its manifest says (ConfigMap reference, field
// references, $(VAR) expansion, image files, a service-account token bound to the pod that the API
// server accepts); a failing container is restarted under back-off; a regular pod gets its address
// from Debian's bridge and host-local plugins and gives it back when deleted; `down` ends the
// kubelet and its containers.
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { after, before, test } from "node:test";
import { KubeClient, pollUntil, type KubeObject } from "../../packages/lab/kubeclient";
import { down, hostExec, up } from "../../packages/lab/localcluster";
import type { LocalCluster, LocalHost } from "../../packages/lab/localcluster";
import { LAB_DIR_MOUNT } from "../../packages/lab/localcluster/holder";
import { startControlPlane, type ControlPlane } from "../../packages/lab/localcluster/kube";
import { containerLogPath, inHost, kubeletOptionsForHost, readTextOr, logText, parseCriLog, startKubelet, stopKubelet, type RunningKubelet, type StartKubeletOptions } from "../../packages/lab/localcluster/kubelet";
import type { Node, Pod } from "../../packages/lab/localcluster/kubelet/types";
import { markOf, stillRunning, type ProcessMark } from "./leftovers";

const ID = "lckblt";
const SERVICE_SUBNET = "172.30.0.0/16";
const IMAGE = "lab/tools:1";
const NS = "default";
const CNI_NETWORK = "labnet";
const POD_SUBNET = "10.244.9.0/24";

let cluster: LocalCluster;
let host: LocalHost;
let cp: ControlPlane;
let admin: KubeClient;
let kubelet: RunningKubelet;
let kubeletOptions: StartKubeletOptions;
let labDir: string;

const seconds = (since: number) => `${((Date.now() - since) / 1000).toFixed(1)} s`;

before(async () => {
    await down(ID); // whatever an aborted earlier run left
    labDir = fs.mkdtempSync(path.join(os.tmpdir(), "lc-kubelet-lab-"));
    // An "image": a file that shadows one of the host's, and a tool the host does not have.
    fs.mkdirSync(path.join(labDir, "image/etc"), { recursive: true });
    fs.mkdirSync(path.join(labDir, "image/usr/local/bin"), { recursive: true });
    fs.writeFileSync(path.join(labDir, "image/etc/debian_version"), "lab-image-1\n");
    fs.writeFileSync(path.join(labDir, "image/usr/local/bin/lab-tool"), '#!/bin/sh\necho "lab-tool ran with: $*"\n', { mode: 0o755 });
    const t0 = Date.now();
    cluster = await up({ id: ID, hosts: 1, os: "debian13", labDir });
    host = cluster.hosts[0];
    const t1 = Date.now();
    cp = await startControlPlane(cluster, { serviceSubnet: SERVICE_SUBNET, log: () => undefined });
    const t2 = Date.now();
    admin = KubeClient.fromKubeconfig(cp.adminKubeconfig.content);
    const creds = await cp.nodeCredentials(host.name);
    // The host's own kubelet paths (Debian 13), Debian's CNI plugins, and the lab's image directory.
    kubeletOptions = kubeletOptionsForHost(cluster, host, creds.kubeconfigPath, { images: { [IMAGE]: `${LAB_DIR_MOUNT}/image` } });
    kubelet = await startKubelet(kubeletOptions);
    console.log(`host up ${t1 - t0} ms, control plane ${t2 - t1} ms, kubelet registered ${seconds(t2)}`);
});

after(async () => {
    admin?.close();
    await down(ID);
    if (labDir) fs.rmSync(labDir, { recursive: true, force: true });
});

const getNode = async () => (await admin.get({ apiVersion: "v1", kind: "Node", name: host.name })) as unknown as Node;
const getPod = async (name: string) => (await admin.tryGet({ apiVersion: "v1", kind: "Pod", namespace: NS, name })) as unknown as Pod | undefined;
const readyCondition = (n: Node) => n.status!.conditions!.find((c) => c.type === "Ready")!;

/** Waits, bounded, until the pod's status satisfies `ok`; the error shows the last status. */
async function waitForPod(name: string, what: string, ok: (p: Pod) => boolean, timeoutMs = 30_000): Promise<Pod> {
    let last: Pod | undefined;
    try {
        return await pollUntil(
            async () => {
                last = await getPod(name);
                return last && ok(last) ? last : undefined;
            },
            { timeoutMs, intervalMs: 250, what: `pod ${name} ${what}` },
        );
    } catch (e) {
        throw new Error(`${(e as Error).message}\nlast status: ${JSON.stringify(last?.status, null, 1)}\nkubelet log:\n${fs.readFileSync(kubelet.logFile, "utf8").slice(-2000)}`);
    }
}

/** Where the kubelet keeps a container attempt's log in the host. */
const logFile = (p: Pod, container: string, attempt: number) => containerLogPath("/var/log/pods", NS, p.metadata!.name!, p.metadata!.uid!, container, attempt);

/** A container's log as the kubelet keeps it on the host, read from this machine. */
function containerLog(p: Pod, container: string, attempt: number): string {
    return fs.readFileSync(inHost(host.holderPid, logFile(p, container, attempt)), "utf8");
}

/** The pod network namespaces of the host (`ip netns list` there). */
async function podNetns(): Promise<string[]> {
    const r = await hostExec(cluster, host.name, ["ip", "netns", "list"]);
    return r.stdout.trim().split("\n").filter(Boolean).map((l) => l.split(" ")[0]);
}

async function createPod(pod: Record<string, unknown>): Promise<Pod> {
    return (await admin.create({ apiVersion: "v1", kind: "Pod", ...pod } as KubeObject)) as unknown as Pod;
}

async function deletePodAndWait(name: string): Promise<void> {
    await admin.delete({ apiVersion: "v1", kind: "Pod", namespace: NS, name });
    await admin.waitUntilGone({ apiVersion: "v1", kind: "Pod", namespace: NS, name }, 40_000);
}

test("the Node registers with the host's address as InternalIP, its Lease, and NotReady while the host has no CNI configuration", async () => {
    const node = await getNode();
    assert.deepEqual(node.status!.addresses, [
        { type: "InternalIP", address: host.ip },
        { type: "Hostname", address: host.name },
    ]);
    assert.equal(node.metadata!.labels!["kubernetes.io/hostname"], host.name);
    assert.equal(node.metadata!.labels!["kubernetes.io/os"], "linux");
    assert.equal(node.status!.nodeInfo!.osImage, "Debian GNU/Linux 13 (trixie)");
    assert.ok(Number(node.status!.capacity!.pods) > 0 && Number(node.status!.allocatable!.cpu) > 0);
    const ready = readyCondition(node);
    assert.equal(ready.status, "False");
    assert.equal(ready.reason, "KubeletNotReady");
    assert.match(ready.message!, /NetworkReady=false reason:NetworkPluginNotReady/);
    // Admission taints a new Node not-ready; the node lifecycle controller keeps the taint only
    // while the Ready condition says False, which the Node carries from its creation on.
    assert.ok((node.spec!.taints ?? []).some((t) => t.key === "node.kubernetes.io/not-ready"), "a node that is not ready keeps the not-ready taint");
    const lease = await admin.get({ apiVersion: "coordination.k8s.io/v1", kind: "Lease", namespace: "kube-node-lease", name: host.name });
    const spec = lease.spec as { holderIdentity: string; leaseDurationSeconds: number; renewTime: string };
    assert.equal(spec.holderIdentity, host.name);
    assert.equal(spec.leaseDurationSeconds, 40);
    assert.ok(Date.now() - Date.parse(spec.renewTime) < 30_000, `lease renewed at ${spec.renewTime}`);
});

test("a hostNetwork pod runs with exactly what its manifest says, and its service-account token authenticates as the pod's account", async () => {
    await admin.create({ apiVersion: "v1", kind: "ConfigMap", metadata: { name: "lab-config", namespace: NS }, data: { greeting: "hello from a ConfigMap" } });
    const script = [
        'echo "ARGS:$#"; for a in "$@"; do echo "ARG:$a"; done',
        "env | sort | sed 's/^/ENV:/'",
        'echo "IMAGE-FILE:$(cat /etc/debian_version)"',
        "lab-tool one two",
        'echo "TOKEN-SHA256:$(sha256sum </var/run/secrets/kubernetes.io/serviceaccount/token | cut -d" " -f1)"',
        'echo "NAMESPACE-FILE:$(cat /var/run/secrets/kubernetes.io/serviceaccount/namespace)"',
        "test -s /var/run/secrets/kubernetes.io/serviceaccount/ca.crt && echo CA-PRESENT",
        "exec sleep 3600",
    ].join("\n");
    const created = await createPod({
        metadata: { name: "envcheck", namespace: NS },
        spec: {
            nodeName: host.name,
            hostNetwork: true,
            initContainers: [{ name: "first", image: IMAGE, command: ["lab-tool", "init", "$(NODE)"], env: [{ name: "NODE", valueFrom: { fieldRef: { fieldPath: "spec.nodeName" } } }] }],
            containers: [
                {
                    name: "main",
                    image: IMAGE,
                    command: ["/bin/sh", "-c", script, "sh"],
                    args: ["$(GREETING)", "$$(GREETING)", "$(NOT_DEFINED)", "$(NODE)@$(HOST_IP)"],
                    env: [
                        { name: "GREETING", valueFrom: { configMapKeyRef: { name: "lab-config", key: "greeting" } } },
                        { name: "NODE", valueFrom: { fieldRef: { fieldPath: "spec.nodeName" } } },
                        { name: "HOST_IP", valueFrom: { fieldRef: { fieldPath: "status.hostIP" } } },
                        { name: "COMBINED", value: "$(NODE)/$(GREETING)/$$(NODE)/$(LATER)" },
                        { name: "LATER", value: "defined after COMBINED" },
                        { name: "OPTIONAL_MISSING", valueFrom: { configMapKeyRef: { name: "lab-config", key: "absent", optional: true } } },
                    ],
                },
            ],
        },
    });
    const running = await waitForPod("envcheck", "Running and Ready", (p) => p.status?.phase === "Running" && p.status.conditions?.some((c) => c.type === "Ready" && c.status === "True") === true);
    assert.equal(running.status!.hostIP, host.ip);
    assert.equal(running.status!.podIP, host.ip, "a hostNetwork pod has the node's address");
    const cs = running.status!.containerStatuses![0];
    assert.deepEqual([cs.name, cs.ready, cs.started, cs.restartCount], ["main", true, true, 0]);
    // The init container ran to completion first.
    const init = running.status!.initContainerStatuses![0];
    assert.deepEqual([init.name, init.state?.terminated?.exitCode, init.state?.terminated?.reason, init.ready], ["first", 0, "Completed", true]);
    assert.equal(logText(containerLog(running, "first", 0)), `lab-tool ran with: init ${host.name}\n`);
    assert.ok(Date.parse(init.state!.terminated!.finishedAt!) <= Date.parse(cs.state!.running!.startedAt!));
    assert.ok(cs.state!.running?.startedAt);

    const lines = await pollUntil(
        async () => {
            const text = logText(containerLog(running, "main", 0));
            return text.includes("CA-PRESENT") ? text.split("\n") : undefined;
        },
        { timeoutMs: 10_000, what: "the envcheck container's output" },
    );
    const values = (prefix: string) => lines.filter((l) => l.startsWith(prefix)).map((l) => l.slice(prefix.length));
    assert.deepEqual(values("ARGS:"), ["4"]);
    assert.deepEqual(values("ARG:"), ["hello from a ConfigMap", "$(GREETING)", "$(NOT_DEFINED)", `${host.name}@${host.ip}`]);
    const env = new Map(values("ENV:").map((l) => [l.slice(0, l.indexOf("=")), l.slice(l.indexOf("=") + 1)]));
    assert.equal(env.get("GREETING"), "hello from a ConfigMap");
    assert.equal(env.get("NODE"), host.name);
    assert.equal(env.get("HOST_IP"), host.ip);
    assert.equal(env.get("COMBINED"), `${host.name}/hello from a ConfigMap/$(NODE)/$(LATER)`);
    assert.equal(env.get("LATER"), "defined after COMBINED");
    assert.equal(env.has("OPTIONAL_MISSING"), false);
    assert.equal(env.get("HOSTNAME"), host.name);
    assert.equal(env.get("KUBERNETES_SERVICE_HOST"), "172.30.0.1");
    assert.equal(env.get("KUBERNETES_SERVICE_PORT"), "443");
    // The image's files are seen by the container only; the host keeps its own.
    assert.deepEqual(values("IMAGE-FILE:"), ["lab-image-1"]);
    assert.ok(lines.includes("lab-tool ran with: one two"));
    assert.match(fs.readFileSync(inHost(host.holderPid, "/etc/debian_version"), "utf8"), /^13\./);
    assert.deepEqual(values("NAMESPACE-FILE:"), [NS]);

    // The token the container sees is the projected volume's, obtained by TokenRequest bound to this pod.
    const volume = created.spec!.volumes!.find((v) => v.projected?.sources?.some((s) => s.serviceAccountToken))!;
    const tokenFile = `/var/lib/kubelet/pods/${created.metadata!.uid}/volumes/kubernetes.io~projected/${volume.name}/token`;
    const token = fs.readFileSync(inHost(host.holderPid, tokenFile), "utf8");
    assert.deepEqual(values("TOKEN-SHA256:"), [createHash("sha256").update(token).digest("hex")]);
    const asPod = KubeClient.fromCredentials({ server: cp.apiServerUrl, caPem: cp.caPem, token, context: "envcheck" });
    try {
        const review = await asPod.transport.request<{ status: { userInfo: { username: string; extra?: Record<string, string[]> } } }>(
            "POST",
            "/apis/authentication.k8s.io/v1/selfsubjectreviews",
            { body: { apiVersion: "authentication.k8s.io/v1", kind: "SelfSubjectReview" } },
        );
        assert.equal(review.status.userInfo.username, "system:serviceaccount:default:default");
        assert.deepEqual(review.status.userInfo.extra?.["authentication.kubernetes.io/pod-name"], ["envcheck"]);
        assert.deepEqual(review.status.userInfo.extra?.["authentication.kubernetes.io/pod-uid"], [created.metadata!.uid]);
    } finally {
        asPod.close();
    }
});

test("a container that exits non-zero is restarted with the kubelet's back-off, and its status says so", async () => {
    await createPod({
        metadata: { name: "crasher", namespace: NS },
        spec: {
            nodeName: host.name,
            hostNetwork: true,
            containers: [{ name: "main", image: IMAGE, command: ["/bin/sh", "-c", "echo crashing now; exit 3"], terminationMessagePolicy: "FallbackToLogsOnError" }],
        },
    });
    const backOffMessages = new Set<string>();
    const p = await waitForPod(
        "crasher",
        "restarted twice",
        (pod) => {
            const s = pod.status?.containerStatuses?.[0];
            if (s?.state?.waiting?.reason === "CrashLoopBackOff") backOffMessages.add(s.state.waiting.message ?? "");
            return (s?.restartCount ?? 0) >= 2;
        },
        40_000,
    );
    const s = p.status!.containerStatuses![0];
    // restartPolicy Always: a pod whose container keeps restarting stays Running.
    assert.equal(p.status!.phase, "Running");
    const last = s.lastState!.terminated!;
    assert.deepEqual([last.exitCode, last.reason, last.message], [3, "Error", "crashing now"]);
    assert.ok([...backOffMessages].some((m) => /^back-off 10s restarting failed container=main pod=crasher_default\(/.test(m)), [...backOffMessages].join("; "));
    // One log per attempt: the first restart is immediate, the second waits out the 10 s back-off.
    // An attempt counts as soon as it starts; its first line may follow a moment later.
    const firstLine = (n: number) =>
        pollUntil(async () => parseCriLog(readTextOr(inHost(host.holderPid, logFile(p, "main", n))))[0]?.time, { timeoutMs: 5000, what: `the first line of attempt ${n}` });
    const [t0, t1, t2] = (await Promise.all([0, 1, 2].map(firstLine))).map(Date.parse);
    assert.ok(t1 - t0 < 5000, `first restart after ${t1 - t0} ms`);
    assert.ok(t2 - t1 >= 9500, `second restart after ${t2 - t1} ms, expected the 10 s back-off`);
    await deletePodAndWait("crasher");
});

test("what keeps a container from starting is on the pod's status in the kubelet's words", async () => {
    const hostNetworkPod = (name: string, container: Record<string, unknown>, volumes?: unknown[]) =>
        createPod({ metadata: { name, namespace: NS }, spec: { nodeName: host.name, hostNetwork: true, containers: [{ name: "main", image: IMAGE, ...container }], volumes } });
    await hostNetworkPod("nocommand", { args: ["hello"] });
    await hostNetworkPod("nohostdir", { command: ["true"], volumeMounts: [{ name: "gone", mountPath: "/mnt/gone" }] }, [
        { name: "gone", hostPath: { path: "/srv/never-created", type: "Directory" } },
    ]);
    await hostNetworkPod("nobinary", { command: ["no-such-program", "x"] });
    const waiting = (p: Pod) => p.status?.containerStatuses?.[0]?.state?.waiting;
    const noCommand = await waitForPod("nocommand", "waiting on its configuration", (p) => waiting(p)?.reason === "CreateContainerConfigError");
    assert.match(waiting(noCommand)!.message!, /container main has no command/);
    const noDir = await waitForPod("nohostdir", "waiting on its volume", (p) => waiting(p)?.reason === "ContainerCreating" && !!waiting(p)?.message);
    assert.equal(waiting(noDir)!.message, "hostPath type check failed: /srv/never-created is not a directory");
    assert.equal(noDir.status!.phase, "Pending");
    const noBinary = await waitForPod("nobinary", "failed to start", (p) => p.status?.containerStatuses?.[0]?.lastState?.terminated?.reason === "StartError");
    const failed = noBinary.status!.containerStatuses![0].lastState!.terminated!;
    assert.equal(failed.exitCode, 128);
    assert.equal(failed.message, 'exec: "no-such-program": executable file not found in $PATH');
    await Promise.all(["nocommand", "nohostdir", "nobinary"].map(deletePodAndWait));
});

test("the Node turns Ready once the host has a CNI configuration, and the not-ready taint goes", async () => {
    const conf = {
        cniVersion: "1.0.0",
        name: CNI_NETWORK,
        plugins: [{ type: "bridge", bridge: "cni-lab0", isGateway: true, ipMasq: false, ipam: { type: "host-local", ranges: [[{ subnet: POD_SUBNET }]] } }],
    };
    fs.mkdirSync(inHost(host.holderPid, "/etc/cni/net.d"), { recursive: true });
    fs.writeFileSync(inHost(host.holderPid, "/etc/cni/net.d/10-lab.conflist"), JSON.stringify(conf));
    const started = Date.now();
    // The next status heartbeat (every 10 s) reports it; the node lifecycle controller then lifts the taint.
    const node = await pollUntil(
        async () => {
            const n = await getNode();
            return readyCondition(n).status === "True" && !(n.spec!.taints ?? []).some((t) => t.key === "node.kubernetes.io/not-ready") ? n : undefined;
        },
        { timeoutMs: 30_000, intervalMs: 500, what: `node ${host.name} Ready without the not-ready taint` },
    );
    assert.equal(readyCondition(node).reason, "KubeletReady");
    console.log(`node Ready ${seconds(started)} after the CNI configuration appeared`);
});

test("a pod with its own network gets its address from bridge + host-local; deleting it removes the namespace and frees the address", async () => {
    await createPod({
        metadata: { name: "netpod", namespace: NS },
        spec: {
            nodeName: host.name,
            terminationGracePeriodSeconds: 5,
            containers: [
                {
                    name: "main",
                    image: IMAGE,
                    command: ["/bin/sh", "-c", "hostname; exec sleep 3600"],
                    // Exec probes run in the container's namespaces: eth0 exists only in the pod's network.
                    readinessProbe: { exec: { command: ["ip", "-4", "-o", "address", "show", "dev", "eth0"] }, periodSeconds: 1 },
                },
            ],
        },
    });
    const p = await waitForPod("netpod", "Ready with an address", (pod) => !!pod.status?.podIP && pod.status.conditions?.some((c) => c.type === "Ready" && c.status === "True") === true);
    const podIP = p.status!.podIP!;
    assert.ok(podIP.startsWith("10.244.9."), podIP);
    assert.notEqual(podIP, host.ip);

    const netnsList = await podNetns();
    assert.equal(netnsList.length, 1, netnsList.join(", "));
    const netns = netnsList[0];
    const inside = await hostExec(cluster, host.name, ["ip", "-n", netns, "-4", "-o", "address", "show", "dev", "eth0"]);
    assert.equal(/inet (\S+)\//.exec(inside.stdout)?.[1], podIP, inside.stdout);
    const ipamFile = `/var/lib/cni/networks/${CNI_NETWORK}/${podIP}`;
    assert.ok(fs.existsSync(inHost(host.holderPid, ipamFile)), "host-local recorded the address");
    const ping = await hostExec(cluster, host.name, ["ping", "-c", "1", "-W", "2", podIP]);
    assert.equal(ping.code, 0, `the host reaches the pod over the bridge: ${ping.stdout}${ping.stderr}`);
    assert.ok(logText(containerLog(p, "main", 0)).startsWith("netpod\n"), "the pod has its own hostname");

    await deletePodAndWait("netpod");
    assert.deepEqual(await podNetns(), [], "the pod's network namespace is gone");
    assert.equal(fs.existsSync(inHost(host.holderPid, ipamFile)), false, "host-local released the address");
    assert.equal(fs.existsSync(inHost(host.holderPid, `/var/lib/kubelet/pods/${p.metadata!.uid}`)), false, "the pod's directory is gone");
});

test("a restarted kubelet tears down the sandbox its predecessor left and runs the pod again with a fresh one", async () => {
    await createPod({
        metadata: { name: "survivor", namespace: NS },
        spec: { nodeName: host.name, terminationGracePeriodSeconds: 2, containers: [{ name: "main", image: IMAGE, command: ["sleep", "3600"] }] },
    });
    const before = await waitForPod("survivor", "Running with an address", (p) => p.status?.phase === "Running" && !!p.status.podIP);
    const [oldNetns] = await podNetns();
    const oldIP = before.status!.podIP!;
    await stopKubelet(kubelet);
    const stoppedAt = Date.now();
    kubelet = await startKubelet(kubeletOptions);
    const after = await waitForPod("survivor", "running again in a new sandbox", (p) => p.status?.phase === "Running" && !!p.status.podIP && p.status.podIP !== oldIP);
    const netns = await podNetns();
    assert.equal(netns.length, 1, netns.join(", "));
    assert.notEqual(netns[0], oldNetns);
    assert.equal(fs.existsSync(inHost(host.holderPid, `/var/lib/cni/networks/${CNI_NETWORK}/${oldIP}`)), false, "the old address was released");
    assert.ok(fs.existsSync(inHost(host.holderPid, `/var/lib/cni/networks/${CNI_NETWORK}/${after.status!.podIP}`)));
    assert.deepEqual(after.status!.podIPs, [{ ip: after.status!.podIP }]);
    console.log(`pod running again ${seconds(stoppedAt)} after the kubelet was stopped`);
    await deletePodAndWait("survivor");
});

test("down ends the kubelet and the containers it started", async () => {
    await createPod({
        metadata: { name: "sleeper", namespace: NS },
        spec: { nodeName: host.name, containers: [{ name: "main", image: IMAGE, command: ["sleep", "3600"] }] },
    });
    await waitForPod("sleeper", "Running", (p) => p.status?.phase === "Running");
    // The container's process: the one in the pod's network namespace.
    const [netns] = await podNetns();
    const nsInode = fs.statSync(inHost(host.holderPid, `/run/netns/${netns}`)).ino;
    const inPod = fs
        .readdirSync("/proc")
        .filter((e) => /^\d+$/.test(e))
        .filter((pid) => {
            try {
                return fs.readlinkSync(`/proc/${pid}/ns/net`) === `net:[${nsInode}]`;
            } catch {
                return false;
            }
        });
    assert.ok(inPod.length > 0, "the container runs in the pod's network namespace");
    const marks: ProcessMark[] = [...markOf(kubelet.pid), ...inPod.flatMap((pid) => markOf(Number(pid)))];
    await down(ID);
    assert.deepEqual(stillRunning(marks), []);
});
