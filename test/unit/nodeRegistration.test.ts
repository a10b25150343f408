// What a Debian 12 or 13 lab host, which runs no kubelet, registers for its Node: the kubelet's
// labels, status and Lease, never Ready; and the labels a kubelet may not set on itself.
import assert from "node:assert/strict";
import { test } from "node:test";
import {
    forbiddenLabelReason,
    initialNode,
    nodeLease,
    nodeStatusPatch,
    NO_RUNTIME_MESSAGE,
} from "../../lab/localcluster/registration/nodeObject";
import { resolveOptions } from "../../lab/localcluster/registration/options";
import { microTime } from "../../lab/localcluster/registration/time";

const identity = {
    name: "node2",
    internalIP: "172.31.9.12",
    labels: { "node.kubernetes.io/lab": "yes" },
    capacity: { cpu: "2", memory: "1024Ki", pods: "110" },
};
const facts = { machineID: "m", bootID: "b", kernelVersion: "6.1", osImage: "Debian GNU/Linux 13 (trixie)", architecture: "amd64" };

test("node: registration labels, status with InternalIP and Hostname, never Ready (no runtime), Lease owned by the Node", () => {
    const node = initialNode(identity, facts, "2026-01-01T00:00:00Z");
    assert.equal(node.metadata!.labels!["kubernetes.io/hostname"], "node2");
    assert.equal(node.metadata!.labels!["kubernetes.io/os"], "linux");
    assert.equal(node.metadata!.labels!["node.kubernetes.io/lab"], "yes");
    // Created with its status, as a kubelet registers.
    assert.equal(node.status!.conditions!.find((c) => c.type === "Ready")!.status, "False");

    const first = nodeStatusPatch(identity, facts, [], "2026-01-01T00:00:00Z").status!;
    assert.deepEqual(first.addresses, [
        { type: "InternalIP", address: "172.31.9.12" },
        { type: "Hostname", address: "node2" },
    ]);
    assert.deepEqual(first.allocatable, identity.capacity);
    assert.equal(first.nodeInfo!.kubeletVersion, "v1.36.2");
    const later = nodeStatusPatch(identity, facts, first.conditions!, "2026-01-01T00:00:10Z").status!;
    const ready = later.conditions!.find((c) => c.type === "Ready")!;
    // The heartbeat moves; the transition stays while the status holds.
    assert.deepEqual(
        [ready.status, ready.reason, ready.message, ready.lastTransitionTime, ready.lastHeartbeatTime],
        ["False", "KubeletNotReady", NO_RUNTIME_MESSAGE, "2026-01-01T00:00:00Z", "2026-01-01T00:00:10Z"],
    );
    assert.match(NO_RUNTIME_MESSAGE, /^container runtime is down: .*containerd 2/);

    const lease = nodeLease("node2", "uid-1", new Date("2026-01-01T00:00:10.123Z"));
    assert.deepEqual(lease.spec, { holderIdentity: "node2", leaseDurationSeconds: 40, renewTime: "2026-01-01T00:00:10.123000Z" });
    assert.deepEqual(lease.metadata!.ownerReferences, [{ apiVersion: "v1", kind: "Node", name: "node2", uid: "uid-1" }]);
    assert.equal(microTime(new Date("2026-01-01T00:00:00Z")), "2026-01-01T00:00:00.000000Z");
});

test("node labels a kubelet may not set on itself (its own --node-labels check, NodeRestriction) are refused up front, with the way out", () => {
    for (const ok of [
        "kubernetes.io/hostname",
        "node.kubernetes.io/instance-type",
        "kubelet.kubernetes.io/x",
        "x.node.kubernetes.io/y",
        "example.com/role",
        "k8s.ovn.org/zone-name",
        "plain",
    ]) {
        assert.equal(forbiddenLabelReason(ok), undefined, ok);
    }
    for (const bad of [
        "node-role.kubernetes.io/control-plane",
        "node-restriction.kubernetes.io/x",
        "example.k8s.io/zone",
        "kubernetes.io/role",
    ]) {
        assert.ok(forbiddenLabelReason(bad), bad);
    }
    const base = { nodeName: "node1", kubeconfigPath: "/k", holderPid: 100, internalIP: "172.31.9.11" };
    assert.throws(
        () => resolveOptions({ ...base, labels: { "node-role.kubernetes.io/control-plane": "" } }),
        /registration option labels: node-role\.kubernetes\.io\/control-plane: .*admin credentials/,
    );
    assert.throws(() => resolveOptions({ ...base, nodeName: "Node_1" }), /registration option nodeName: "Node_1"/);
    assert.throws(() => resolveOptions({ ...base, internalIP: "172.31.9" }), /registration option internalIP: "172\.31\.9"/);
    assert.deepEqual(resolveOptions(base), { ...base, labels: {}, capacity: undefined });
});
