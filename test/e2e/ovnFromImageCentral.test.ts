// OVN from the image with the centralized architecture: 3 Debian 13 hosts (Open vSwitch 3.5, no
// OVN package), all three centrals, whose NB and SB run as raft clusters of 3 in the ovnkube-db
// pods on them (DaemonSet ovnkube-db, from the lab's image) and every node's ovn-controller in its
// ovnkube-node pod. Pods get their planned addresses and ping; the NB leader's nb-ovsdb container
// killed (every process of it, as a crash) leaves a new leader among the others, the kubelet
// restarts the container, it rejoins, and pods created meanwhile get addresses and ping; a second
// up and a refresh change nothing; destroy leaves every host as it was.
import assert from "node:assert/strict";
import { test } from "node:test";
import { hostExec } from "../../lab/localcluster";
import { startDemoDeployment } from "../../lab/localcluster/kubeWorkloads";
import { CONTAINERD_SOCKET } from "../../lab/localcluster/node/config";
import { plannedOvnkubePods, waitOvnkubePodsRunning } from "../../lab/scenarios/ovnkubePods";
import { assertUpAndRefreshChangeNothing } from "../../lab/scenarios/ovnkubeLab";
import { pollUntil } from "../../lab/kubeclient";
import { assertDestroyLeavesHosts, assertPingEveryFamily, familyLabForFile } from "./support/familyProof";
import { assertPlannedAddresses } from "./support/workloadProof";
import { assertRaftOfEveryCentral, clusterOf, electedAmong, leaderOf } from "./support/raftMembers";
import { processesNamed } from "./support/hostDaemons";
import { reportFaultCell, secondsSince } from "../support/faultMatrix";
import { phase } from "./support/phase";

const ID = "e2eimc";
const LATE = "imc-late";
const CENTRALS = ["node1", "node2", "node3"];

const family = familyLabForFile(ID, "ipv4", {
    os: "debian13",
    stack: { ovnkube: { architecture: "centralized", ovnSource: "image" }, centrals: 3 },
});
const lab = () => family().lab;
const centrals = () => ({ cluster: lab().cluster, model: lab().model });

interface PodStatus {
    containerStatuses: Array<{ name: string; containerID?: string; restartCount: number; ready: boolean }>;
}

/** The ovnkube-db pod on `node`: its name and its containers' states. */
async function dbPodOn(node: string): Promise<{ name: string; status: PodStatus }> {
    const pods = await lab().admin.list("v1", "Pod", { namespace: lab().model.kube.namespace });
    const pod = pods.find((p) => p.metadata.name?.startsWith("ovnkube-db-") && (p.spec as { nodeName?: string }).nodeName === node);
    assert.ok(pod, `an ovnkube-db pod on ${node}`);
    return { name: pod.metadata.name!, status: pod.status as PodStatus };
}

test("the centrals' NB and SB run as raft clusters of 3 in the ovnkube-db pods, one leader each; the hosts have no OVN package", async () => {
    assert.equal(lab().model.architecture, "centralized");
    const running = await waitOvnkubePodsRunning(lab().admin, lab().model.kube, 120_000);
    assert.deepEqual(
        running.map((p) => p.placement),
        plannedOvnkubePods(lab().model.kube),
    );
    assert.ok(running.some((p) => p.placement === "ovnkube-db@node3"));
    await assertRaftOfEveryCentral(centrals());
    // One northd per central, in its pod; no OVN package on any host.
    assert.deepEqual(
        processesNamed(lab().cluster, ["ovn-northd"]),
        CENTRALS.map((h) => `${h}: ovn-northd`),
    );
    for (const host of lab().cluster.hosts) {
        const r = await hostExec(lab().cluster, host.name, ["dpkg-query", "-W", "-f", "${Package} ${Status}\n", "ovn-*"]);
        assert.doesNotMatch(r.stdout, /install ok installed/, `${host.name} has no OVN package`);
    }
});

test("every pod gets an address in its node's planned subnet, and every pod and host pings every pod", async () => {
    await assertPlannedAddresses(lab(), lab().model, family().pods);
    await assertPingEveryFamily(lab(), family().pods);
});

test("the NB leader's nb-ovsdb container killed: a new leader among the others, the container restarted and back in the cluster; pods created meanwhile get addresses and ping", async (t) => {
    const victim = await leaderOf(centrals(), "nb");
    const before = await dbPodOn(victim);
    const nb = before.status.containerStatuses.find((c) => c.name === "nb-ovsdb")!;
    const id = nb.containerID!.replace(/^containerd:\/\//, "");
    // Every process of the container, SIGKILL, as a crash or the OOM killer ends it.
    const kill = await hostExec(lab().cluster, victim, [
        "ctr",
        "--address",
        CONTAINERD_SOCKET,
        "-n",
        "k8s.io",
        "tasks",
        "kill",
        "--all",
        "--signal",
        "SIGKILL",
        id,
    ]);
    assert.equal(kill.code, 0, kill.stderr);
    const killed = Date.now();
    const successor = await electedAmong(
        centrals(),
        "nb",
        CENTRALS.filter((h) => h !== victim),
    );
    console.log(`# NB leader ${victim}'s nb-ovsdb container killed; ${successor} leads after ${secondsSince(killed).toFixed(1)} s`);
    const late = await phase("pods after the leader's container was killed", () =>
        startDemoDeployment(lab().admin, lab().cluster, { name: LATE, replicas: 3, command: ["sleep", "infinity"] }),
    );
    await assertPlannedAddresses(lab(), lab().model, late);
    await assertPingEveryFamily(lab(), [...late, ...family().pods]);
    // The kubelet restarted the container; its member rejoined: every member sees 3 servers again.
    await pollUntil(
        async () => {
            const now = (await dbPodOn(victim)).status.containerStatuses.find((c) => c.name === "nb-ovsdb")!;
            const views = await clusterOf(centrals(), "nb");
            return now.restartCount > nb.restartCount && now.ready !== false && views.every((v) => v.status?.servers.length === 3)
                ? true
                : undefined;
        },
        { timeoutMs: 120_000, intervalMs: 1000, what: `${victim}'s nb-ovsdb restarted and back in the NB cluster` },
    );
    const back = secondsSince(killed);
    console.log(`# ${victim}'s member back in the cluster ${back.toFixed(1)} s after the kill`);
    reportFaultCell(t, {
        fault: "the NB leader's nb-ovsdb container killed (3 centrals, raft, OVN from the image)",
        point: "while ovnkube writes, pods created after",
        mode: "ovnkube",
        outcome: `${successor} led; the new pods got their planned addresses and ping; the kubelet restarted the container, its member rejoined`,
        convergeSeconds: back,
    });
});

test("a second up and a refresh change nothing", () => assertUpAndRefreshChangeNothing(lab().offline));

test("destroy leaves no OVN process and every host as it was before the first up", () =>
    assertDestroyLeavesHosts(family(), [], [{ name: LATE }]));
