// The kubelet stand-in's pure rules for what it reports and how it paces itself: pod phase and
// conditions, crash-loop back-off, the Node's labels, conditions and Lease, CNI configuration and
// results, CRI log lines and token renewal.
import assert from "node:assert/strict";
import { test } from "node:test";
import { INITIAL_BACKOFF_MS, MAX_BACKOFF_MS, backoffRemaining, goDuration, nextBackoff } from "../../packages/lab/localcluster/kubelet/backoff";
import { cniArgs, configFileNames, delTakesPrevResult, parseNetworkConfig, pluginError, pluginStdin, podIPsFromResult } from "../../packages/lab/localcluster/kubelet/cniConfig";
import { containerLogPath, criLine, logText, terminationMessageFromLog } from "../../packages/lab/localcluster/kubelet/logs";
import { forbiddenLabelReason, initialNode, nodeLease, nodeStatusPatch } from "../../packages/lab/localcluster/kubelet/nodeObject";
import { resolveOptions } from "../../packages/lab/localcluster/kubelet/options";
import { podPhase, podStatus } from "../../packages/lab/localcluster/kubelet/podStatus";
import { microTime } from "../../packages/lab/localcluster/kubelet/time";
import { tokenNeedsRefresh } from "../../packages/lab/localcluster/kubelet/tokens";
import type { ContainerStatus, Pod } from "../../packages/lab/localcluster/kubelet/types";

const running = (name: string, ready = true): ContainerStatus => ({ name, image: "i", imageID: "", restartCount: 0, ready, state: { running: { startedAt: "2026-01-01T00:00:00Z" } } });
const exited = (name: string, exitCode: number): ContainerStatus => ({ name, image: "i", imageID: "", restartCount: 0, ready: false, state: { terminated: { exitCode } } });
const backingOff = (name: string, exitCode: number): ContainerStatus => ({
    name, image: "i", imageID: "", restartCount: 3, ready: false,
    state: { waiting: { reason: "CrashLoopBackOff" } },
    lastState: { terminated: { exitCode } },
});
const creating = (name: string): ContainerStatus => ({ name, image: "i", imageID: "", restartCount: 0, ready: false, state: { waiting: { reason: "ContainerCreating" } } });

function pod(restartPolicy: "Always" | "OnFailure" | "Never", init = 0): Pod {
    return {
        apiVersion: "v1",
        kind: "Pod",
        metadata: { name: "p", namespace: "lab", uid: "u" },
        spec: {
            restartPolicy,
            initContainers: Array.from({ length: init }, (_, i) => ({ name: `init${i}` })),
            containers: [{ name: "a" }, { name: "b" }],
        },
    };
}

test("pod phase follows the kubelet's getPhase for every restart policy", () => {
    const cases: Array<[Pod, ContainerStatus[], ContainerStatus[], string]> = [
        [pod("Always"), [], [creating("a"), creating("b")], "Pending"],
        [pod("Always"), [], [running("a"), creating("b")], "Pending"],
        [pod("Always"), [], [running("a"), running("b")], "Running"],
        [pod("Always"), [], [running("a"), backingOff("b", 1)], "Running"],
        [pod("Always"), [], [exited("a", 0), exited("b", 1)], "Running"],
        [pod("OnFailure"), [], [exited("a", 0), exited("b", 0)], "Succeeded"],
        [pod("OnFailure"), [], [exited("a", 0), exited("b", 2)], "Running"],
        [pod("Never"), [], [exited("a", 0), exited("b", 2)], "Failed"],
        [pod("Never"), [], [exited("a", 0), exited("b", 0)], "Succeeded"],
        [pod("Always", 1), [running("init0")], [creating("a"), creating("b")], "Pending"],
        [pod("Never", 1), [exited("init0", 1)], [creating("a"), creating("b")], "Failed"],
        [pod("Always", 1), [backingOff("init0", 1)], [creating("a"), creating("b")], "Pending"],
        [pod("Always", 1), [exited("init0", 0)], [running("a"), running("b")], "Running"],
    ];
    for (const [p, init, containers, want] of cases) {
        assert.equal(podPhase(p, { initContainerStatuses: init, containerStatuses: containers }), want, `${p.spec!.restartPolicy} ${JSON.stringify([...init, ...containers].map((s) => s.state))}`);
    }
});

test("pod conditions: Initialized, ContainersReady and Ready with the kubelet's reasons and messages; transition times kept while the status holds", () => {
    const p = pod("Always", 2);
    const rt = {
        initContainerStatuses: [exited("init0", 0), running("init1")],
        containerStatuses: [creating("a"), creating("b")],
        sandboxReady: true,
        hostIPs: ["172.31.9.11"],
        podIPs: ["10.244.0.5"],
        startTime: "2026-01-01T00:00:00Z",
    };
    const s = podStatus(p, rt, "2026-01-01T00:00:05Z");
    const cond = (type: string) => s.conditions!.find((c) => c.type === type)!;
    assert.deepEqual(s.conditions!.map((c) => c.type), ["PodReadyToStartContainers", "Initialized", "Ready", "ContainersReady", "PodScheduled"]);
    assert.equal(s.phase, "Pending");
    assert.deepEqual([cond("Initialized").status, cond("Initialized").reason, cond("Initialized").message], ["False", "ContainersNotInitialized", "containers with incomplete status: [init1]"]);
    assert.deepEqual([cond("Ready").status, cond("Ready").reason, cond("Ready").message], ["False", "ContainersNotReady", "containers with unready status: [a b]"]);
    assert.equal(cond("PodReadyToStartContainers").status, "True");
    assert.equal(s.podIP, "10.244.0.5");
    assert.deepEqual(s.hostIPs, [{ ip: "172.31.9.11" }]);

    const later = podStatus({ ...p, status: s }, { ...rt, initContainerStatuses: [exited("init0", 0), exited("init1", 0)], containerStatuses: [running("a"), running("b", false)] }, "2026-01-01T00:00:09Z");
    const c2 = (type: string) => later.conditions!.find((c) => c.type === type)!;
    assert.equal(later.phase, "Running");
    assert.equal(c2("Initialized").status, "True");
    assert.equal(c2("Initialized").lastTransitionTime, "2026-01-01T00:00:09Z");
    assert.equal(c2("Ready").message, "containers with unready status: [b]");
    // Still False: the transition time stays that of the first report.
    assert.equal(c2("Ready").lastTransitionTime, "2026-01-01T00:00:05Z");
    assert.equal(c2("PodScheduled").lastTransitionTime, "2026-01-01T00:00:05Z");
});

test("crash-loop back-off: immediate first restart, then 10 s doubling to 5 min, reset after 10 minutes without a crash", () => {
    const t0 = 1_000_000;
    // First crash: no entry yet, restart now; the entry starts at 10 s.
    assert.equal(backoffRemaining(undefined, t0, t0), 0);
    let b = nextBackoff(undefined, t0, t0);
    assert.equal(b.delayMs, INITIAL_BACKOFF_MS);
    // Second crash 2 s later: wait out 10 s from its finish.
    assert.equal(backoffRemaining(b, t0 + 2000, t0 + 3000), 9000);
    assert.equal(backoffRemaining(b, t0 + 2000, t0 + 12_000), 0);
    const delays: number[] = [];
    let t = t0 + 12_000;
    for (let i = 0; i < 7; i++) {
        b = nextBackoff(b, t, t);
        delays.push(b.delayMs);
        t += 1000;
    }
    assert.deepEqual(delays, [20_000, 40_000, 80_000, 160_000, 300_000, 300_000, 300_000]);
    assert.equal(b.delayMs, MAX_BACKOFF_MS);
    // A container that ran 10 minutes since the last restart starts over at 10 s.
    const after = nextBackoff(b, b.lastUpdateMs + 2 * MAX_BACKOFF_MS + 1, b.lastUpdateMs + 2 * MAX_BACKOFF_MS + 1);
    assert.equal(after.delayMs, INITIAL_BACKOFF_MS);
    assert.deepEqual([10_000, 20_000, 160_000, 300_000].map(goDuration), ["10s", "20s", "2m40s", "5m0s"]);
});

const identity = { name: "node2", internalIP: "172.31.9.12", labels: { "node.kubernetes.io/lab": "yes" }, capacity: { cpu: "2", memory: "1024Ki", pods: "110" } };
const facts = { machineID: "m", bootID: "b", kernelVersion: "6.1", osImage: "Debian GNU/Linux 13 (trixie)", architecture: "amd64" };

test("node: registration labels, status with InternalIP and Hostname, Ready from the runtime network, Lease owned by the Node", () => {
    const node = initialNode(identity, facts, { ready: false, message: "cni plugin not initialized" }, "2026-01-01T00:00:00Z");
    assert.equal(node.metadata!.labels!["kubernetes.io/hostname"], "node2");
    // Created with its status, as a kubelet registers: Ready=False from the start.
    assert.deepEqual(node.status!.conditions!.find((c) => c.type === "Ready")!.status, "False");
    assert.equal(node.metadata!.labels!["kubernetes.io/os"], "linux");
    assert.equal(node.metadata!.labels!["node.kubernetes.io/lab"], "yes");

    const notReady = nodeStatusPatch(identity, facts, { ready: false, message: "Network plugin returns error: cni plugin not initialized" }, [], "2026-01-01T00:00:00Z").status!;
    assert.deepEqual(notReady.addresses, [{ type: "InternalIP", address: "172.31.9.12" }, { type: "Hostname", address: "node2" }]);
    const ready0 = notReady.conditions!.find((c) => c.type === "Ready")!;
    assert.deepEqual([ready0.status, ready0.reason], ["False", "KubeletNotReady"]);
    assert.equal(ready0.message, "container runtime network not ready: NetworkReady=false reason:NetworkPluginNotReady message:Network plugin returns error: cni plugin not initialized");
    assert.deepEqual(notReady.allocatable, identity.capacity);

    const ready = nodeStatusPatch(identity, facts, { ready: true }, notReady.conditions!, "2026-01-01T00:00:10Z").status!;
    const r1 = ready.conditions!.find((c) => c.type === "Ready")!;
    assert.deepEqual([r1.status, r1.reason, r1.lastTransitionTime, r1.lastHeartbeatTime], ["True", "KubeletReady", "2026-01-01T00:00:10Z", "2026-01-01T00:00:10Z"]);
    const mem = ready.conditions!.find((c) => c.type === "MemoryPressure")!;
    assert.deepEqual([mem.status, mem.lastTransitionTime], ["False", "2026-01-01T00:00:00Z"]);

    const lease = nodeLease("node2", "uid-1", new Date("2026-01-01T00:00:10.123Z"));
    assert.deepEqual(lease.spec, { holderIdentity: "node2", leaseDurationSeconds: 40, renewTime: "2026-01-01T00:00:10.123000Z" });
    assert.deepEqual(lease.metadata!.ownerReferences, [{ apiVersion: "v1", kind: "Node", name: "node2", uid: "uid-1" }]);
    assert.equal(microTime(new Date("2026-01-01T00:00:00Z")), "2026-01-01T00:00:00.000000Z");
});

test("node labels a kubelet may not set on itself (its own --node-labels check, NodeRestriction) are refused up front, with the way out", () => {
    for (const ok of ["kubernetes.io/hostname", "node.kubernetes.io/instance-type", "kubelet.kubernetes.io/x", "x.node.kubernetes.io/y", "example.com/role", "k8s.ovn.org/zone-name", "plain"]) {
        assert.equal(forbiddenLabelReason(ok), undefined, ok);
    }
    for (const bad of ["node-role.kubernetes.io/control-plane", "node-restriction.kubernetes.io/x", "example.k8s.io/zone", "kubernetes.io/role"]) {
        assert.ok(forbiddenLabelReason(bad), bad);
    }
    const base = { nodeName: "node1", kubeconfigPath: "/k", holderPid: 100, internalIP: "172.31.9.11" };
    assert.throws(() => resolveOptions({ ...base, labels: { "node-role.kubernetes.io/control-plane": "" } }), /admin credentials/);
    assert.throws(() => resolveOptions({ ...base, nodeName: "Node_1" }), /nodeName/);
    assert.throws(() => resolveOptions({ ...base, internalIP: "172.31.9" }), /internalIP/);
    assert.throws(() => resolveOptions({ ...base, cniBinDirs: ["relative/bin"] }), /cniBinDirs\[0\]/);
    assert.deepEqual(resolveOptions(base).cniBinDirs, ["/opt/cni/bin"]);
    assert.equal(resolveOptions(base).rootDir, "/var/lib/kubelet");
});

test("CNI configuration: the first .conf/.conflist/.json file lexically; lists and single plugins; the errors libcni gives", () => {
    assert.deepEqual(configFileNames(["99-z.conflist", "10-ovn-kubernetes.conf", "README", "05-a.json", "x.conf.bak"]), ["05-a.json", "10-ovn-kubernetes.conf", "99-z.conflist"]);
    const list = parseNetworkConfig("/etc/cni/net.d/10-lab.conflist", JSON.stringify({ cniVersion: "1.0.0", name: "lab", plugins: [{ type: "bridge", bridge: "cni0" }, { type: "portmap" }] }));
    assert.deepEqual(list.plugins.map((p) => p.type), ["bridge", "portmap"]);
    const single = parseNetworkConfig("/etc/cni/net.d/10-ovn-kubernetes.conf", JSON.stringify({ cniVersion: "0.4.0", name: "ovn-kubernetes", type: "ovn-k8s-cni-overlay", ipam: {} }));
    assert.deepEqual([single.name, single.cniVersion, single.plugins.length], ["ovn-kubernetes", "0.4.0", 1]);
    assert.throws(() => parseNetworkConfig("a.conflist", JSON.stringify({ plugins: [{ type: "x" }] })), /no name/);
    assert.throws(() => parseNetworkConfig("a.conflist", JSON.stringify({ name: "n", plugins: [] })), /no plugins in list/);
    assert.throws(() => parseNetworkConfig("a.conf", JSON.stringify({ name: "n" })), /missing 'type'/);
    assert.throws(() => parseNetworkConfig("a.conf", JSON.stringify({ name: "n", type: "../../bin/sh" })), /not a plain file name/);
    assert.throws(() => parseNetworkConfig("a.conf", "{"), /not JSON/);

    // Each plugin gets the list's name and version, and the previous result.
    const stdin = JSON.parse(pluginStdin(list, list.plugins[1], { cniVersion: "1.0.0", ips: [] }));
    assert.deepEqual(stdin, { type: "portmap", name: "lab", cniVersion: "1.0.0", prevResult: { cniVersion: "1.0.0", ips: [] } });
    assert.equal("prevResult" in JSON.parse(pluginStdin(list, list.plugins[0])), false);
    assert.deepEqual(["0.3.1", "0.4.0", "1.0.0"].map(delTakesPrevResult), [false, true, true]);
    const id = "a".repeat(64);
    assert.equal(cniArgs("lab", "web-0", "u-1", id), `IgnoreUnknown=1;K8S_POD_NAMESPACE=lab;K8S_POD_NAME=web-0;K8S_POD_INFRA_CONTAINER_ID=${id};K8S_POD_UID=u-1`);
    assert.equal(pluginError("bridge", "ADD", 1, JSON.stringify({ code: 11, msg: "failed to allocate", details: "range full" }), ""), 'plugin type="bridge" failed (add): failed to allocate; range full');
});

test("CNI results: the pod interface's addresses, IPv4 first; older result formats", () => {
    const result = {
        cniVersion: "1.0.0",
        interfaces: [{ name: "cni0" }, { name: "veth1" }, { name: "eth0", sandbox: "/var/run/netns/x" }],
        ips: [{ interface: 2, address: "fd00::5/64" }, { interface: 0, address: "10.244.0.1/24" }, { interface: 2, address: "10.244.0.5/24", gateway: "10.244.0.1" }],
    };
    assert.deepEqual(podIPsFromResult(result, "eth0"), ["10.244.0.5", "fd00::5"]);
    assert.deepEqual(podIPsFromResult({ cniVersion: "0.3.1", ips: [{ version: "4", address: "10.1.0.9/16" }] }, "eth0"), ["10.1.0.9"]);
    assert.deepEqual(podIPsFromResult({ cniVersion: "0.2.0", ip4: { ip: "10.2.0.3/24" } }, "eth0"), ["10.2.0.3"]);
});

test("CRI logs: path per attempt, RFC 3339 lines with stream and tag, text and the FallbackToLogsOnError tail", () => {
    assert.equal(containerLogPath("/var/log/pods", "lab", "web-0", "u-1", "main", 2), "/var/log/pods/lab_web-0_u-1/main/2.log");
    const t = new Date("2026-01-01T00:00:00.120Z");
    assert.equal(criLine(t, "stdout", "hello"), "2026-01-01T00:00:00.12Z stdout F hello\n");
    const content = criLine(t, "stdout", "par", true) + criLine(t, "stdout", "tial") + criLine(t, "stderr", "oops");
    assert.equal(logText(content), "partial\noops\n");
    assert.equal(logText(content, "stderr"), "oops\n");
    const long = Array.from({ length: 100 }, (_, i) => criLine(t, "stdout", `line ${i}`)).join("");
    const msg = terminationMessageFromLog(long);
    assert.equal(msg.split("\n").length, 80);
    assert.ok(msg.endsWith("line 99"));
    assert.ok(Buffer.byteLength(terminationMessageFromLog(criLine(t, "stdout", "x".repeat(5000)))) <= 2048);
});

test("service-account tokens are renewed after 80 % of their lifetime or 24 hours", () => {
    const issued = { token: "t", expiresMs: 3_600_000, expirationSeconds: 3600 };
    assert.equal(tokenNeedsRefresh(issued, 0), false);
    assert.equal(tokenNeedsRefresh(issued, 2_879_000), false);
    assert.equal(tokenNeedsRefresh(issued, 2_880_000), true);
    const yearLong = { token: "t", expiresMs: 365 * 86_400_000, expirationSeconds: 365 * 86_400 };
    assert.equal(tokenNeedsRefresh(yearLong, 86_400_000 - 1), false);
    assert.equal(tokenNeedsRefresh(yearLong, 86_400_000), true);
});
