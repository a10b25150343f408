// OVN from the release's image end to end (ovnkube.ovnSource image): 3 Debian 13 hosts with
// Debian 13's Open vSwitch 3.5 and no OVN package, ovn-kubernetes interconnect, each zone's NB,
// SB, ovn-northd and ovn-controller running as containers of its node's ovnkube-node pod from the
// lab's image (Debian unstable's OVN 26.03), their database files on the host. Brought up on 1.2,
// then 1.2 → 1.3 in one up under probes between pods, OVN rolling with the image and each zone's
// database kept. On 1.3 the workload proof (planned subnets, ping matrix, ClusterIP, NodePort
// from the outside, SNAT); the demo's explore commands as printed; one writer per NB cell in every
// zone; a second up and a refresh change nothing; one node's ovnkube-node pod deleted under traffic
// between pods of the other nodes; destroy leaves every host as it was.
import assert from "node:assert/strict";
import { test } from "node:test";
import { IMAGE_OVN_DB_DIR, NB_DB_FILE } from "../../components/model/names";
import { hostExec } from "../../lab/localcluster";
import { continuousPing, hostOut } from "../../lab/scenarios/liveChange";
import { asLocalPod } from "../../lab/scenarios/ovnkubeUpgrade";
import { ovnkubePodsOf, recreateOvnkubePods } from "../../lab/scenarios/ovnkubePods";
import { assertUpAndRefreshChangeNothing, writeLabStack } from "../../lab/scenarios/ovnkubeLab";
import { upgradeUnderProbes } from "../../lab/scenarios/ovnkubeUpgrade";
import { ovnkubeImages } from "../../lab/scenarios/ovnkubePods";
import { validateConfig } from "../../components/plan/validate";
import { readStackFile } from "../../components/config/stackFile";
import { pingMatrix, formatMatrix } from "../../lab/localcluster/checks";
import { podRef } from "../../lab/localcluster/kubeWorkloads";
import {
    assertDestroyLeavesHosts,
    assertNodePortFromOutside,
    assertOutsideEveryFamily,
    assertPingEveryFamily,
    assertServiceEveryFamily,
    familyLabForFile,
    SERVER_LABEL,
    SPREAD,
} from "./support/familyProof";
import { assertPlannedAddresses } from "./support/workloadProof";
import { assertZoneWriters } from "./support/nbTransactionLog";
import { assertNoProbeLost, assertRolloutLostNothing } from "./support/upgradeProbes";
import { assertExploreCommandsWork } from "./support/exploreCommands";
import { readNbLog } from "./support/nbTransactionLog";
import { releaseOf } from "../../components/config/releases";
import { buildClusterModel } from "../../components/model/clusterModel";
import { labImageOvn } from "../../lab/localcluster/node/images";
import { phase } from "./support/phase";
import { awaitChassisCaughtUp, formatCaughtUp } from "../../lab/localcluster/overlayReadiness";
import { secondsSince } from "../support/faultMatrix";

const ID = "e2eimg";
const SERVICE = "img";
const NODE_PORT_SERVICE = "img-nodeport";
/** OVN from the image; the lab's stack names the OVN its image carries (Debian unstable's, not the release image's 25.09.0). */
const stackOn = (version: "1.2" | "1.3") => ({ ovnkube: { version, ovnSource: "image" as const } });
/** The zone's NB database file on the host, where the pod keeps it. */
const NB_FILE = `${IMAGE_OVN_DB_DIR}/${NB_DB_FILE}`;
/** The containers of the ovnkube-node pod that run OVN. */
const OVN_CONTAINERS = ["nb-ovsdb", "ovn-controller", "ovn-northd", "sb-ovsdb"];

const family = familyLabForFile(ID, "ipv4", { os: "debian13", release: "1.2", stack: stackOn("1.2") });
const lab = () => family().lab;
/** One pod per node, sorted by node: [client, server, other]. */
const pods = () => family().pods;

test("on 1.2: the hosts run Debian 13's Open vSwitch and no OVN package; each zone's OVN runs in its ovnkube-node pod from the image, its databases on the host", async () => {
    assert.equal(lab().model.imageOvn?.version, labImageOvn(), "the stack names the lab image's OVN");
    assert.deepEqual(await ovnkubeImages(lab().admin, lab().model.kube), [releaseOf("1.2").image]);
    for (const host of lab().cluster.hosts) {
        assert.match(await hostOut(lab().cluster, host.name, ["ovs-vswitchd", "--version"]), /\(Open vSwitch\) 3\.5\./, host.name);
        const ovnPackages = await hostExec(lab().cluster, host.name, ["dpkg-query", "-W", "-f", "${Package} ${Status}\n", "ovn-*"]);
        assert.doesNotMatch(ovnPackages.stdout, /install ok installed/, `${host.name} has no OVN package`);
        assert.equal((await hostExec(lab().cluster, host.name, ["test", "-s", NB_FILE])).code, 0, `${host.name}: ${NB_FILE}`);
        // The zone's NB answers on the host's socket, named after its node, as OVN 26.03 from the image.
        const version = await hostOut(lab().cluster, host.name, [
            "ovsdb-client",
            "get-schema-version",
            "unix:/var/run/ovn/ovnnb_db.sock",
            "OVN_Northbound",
        ]);
        assert.match(version, /^7\.1[2-9]\./, `${host.name}: NB schema ${version}`);
    }
    const ovnkube = await lab().admin.list("v1", "Pod", { namespace: lab().model.kube.namespace });
    const nodePods = ovnkube.filter((p) => p.metadata.name?.startsWith("ovnkube-node"));
    assert.equal(nodePods.length, 3);
    for (const pod of nodePods) {
        const statuses = (pod.status as { containerStatuses: Array<{ name: string; ready: boolean; state: Record<string, unknown> }> })
            .containerStatuses;
        assert.deepEqual(
            statuses
                .filter((c) => OVN_CONTAINERS.includes(c.name) && "running" in c.state)
                .map((c) => c.name)
                .sort(),
            OVN_CONTAINERS,
            `${pod.metadata.name}: ${JSON.stringify(statuses.map((c) => [c.name, Object.keys(c.state)]))}`,
        );
    }
});

test("1.2 → 1.3 in one up: OVN rolls with the image under probes between pods on two nodes, none lost; each zone keeps its database; the pods keep their addresses", async () => {
    const [a, b] = pods();
    const before = new Map(lab().cluster.hosts.map((h) => [h.name, readNbLog(lab().cluster, h.name, NB_FILE).transactions]));
    writeLabStack(lab(), lab().offline.stackFile!, stackOn("1.3"));
    const to13 = buildClusterModel(validateConfig(readStackFile(lab().offline.stackFile!)));
    const rollout = await phase("up 1.2 → 1.3", () => upgradeUnderProbes(lab(), to13.kube, [a, b]));
    assertRolloutLostNothing(rollout, `${a.node} ↔ ${b.node}`);
    lab().model = to13;
    assert.deepEqual(await ovnkubeImages(lab().admin, to13.kube), [releaseOf("1.3").image]);
    // The new pods' nb-ovsdb opened the same files: their logs go on from what the old pods wrote.
    for (const [host, old] of before) {
        const now = readNbLog(lab().cluster, host, NB_FILE).transactions;
        assert.deepEqual(
            now.slice(0, old.length).map((t) => t.sha1),
            old.map((t) => t.sha1),
            `${host}: the zone's NB kept`,
        );
    }
    const running = await lab().admin.list("v1", "Pod", { namespace: "default", labelSelector: `app=${SPREAD}` });
    assert.deepEqual(
        Object.fromEntries(running.map((p) => [p.metadata.name, (p.status as { podIP: string }).podIP])),
        Object.fromEntries(pods().map((p) => [p.name, p.ip])),
    );
});

test("every pod gets an address in its node's planned subnet", () => assertPlannedAddresses(lab(), lab().model, pods()));

test("every pod and host pings every pod", () => assertPingEveryFamily(lab(), pods()));

test("a Service answers at its ClusterIP, keeping the client's address", () =>
    assertServiceEveryFamily(lab(), SERVICE, SERVER_LABEL, "SingleStack", pods()));

test("a NodePort Service answers from the outside at every node", () => assertNodePortFromOutside(lab(), NODE_PORT_SERVICE, pods()[1]));

test("pods reach the outside, SNATed to their node's address", () => assertOutsideEveryFamily(lab(), pods()));

test("every zone's NB, written by its nb-ovsdb container, ovn-northd and ovnkube, had one writer per cell", () => {
    for (const host of lab().cluster.hosts) assertZoneWriters(lab().cluster, host.name, NB_FILE);
});

test("the demo's explore commands, run as printed, show each zone's switches and chassis with the hosts' ovsdb-client; its readiness wait sees every chassis caught up (after the writers' check: the wait writes nb_cfg)", async () => {
    const lines = await assertExploreCommandsWork(ID, lab().model);
    console.log(`# explore: ${lines[0]}`);
    const caughtUp = await awaitChassisCaughtUp(lab().cluster, lab().model);
    assert.ok(caughtUp.ok, formatCaughtUp(caughtUp));
});

test("a second up and a refresh change nothing", () => assertUpAndRefreshChangeNothing(lab().offline));

test("one node's ovnkube-node pod deleted: pods on the other nodes lose no probe, and its own pod reaches every pod again", async () => {
    const [a, b, own] = pods();
    const probes = [continuousPing(lab().cluster, asLocalPod(a), b.ip), continuousPing(lab().cluster, asLocalPod(b), a.ip)];
    const started = Date.now();
    await recreateOvnkubePods(
        lab().admin,
        lab().model.kube,
        (p) => p.placement.endsWith(`@${own.node}`) && p.placement.startsWith("ovnkube-node"),
        180_000,
    );
    const running = secondsSince(started);
    // Its pod reaches every other pod again, through the new pod's ovn-controller.
    const matrix = await pingMatrix(
        lab().cluster,
        [{ label: own.name, from: podRef(own) }],
        pods()
            .filter((p) => p !== own)
            .map((p) => ({ label: p.name, ip: p.ip })),
        60,
    );
    const recovered = secondsSince(started);
    assert.ok(matrix.allOk, "\n" + formatMatrix(matrix));
    const traffic = await Promise.all(probes.map((p) => p.stop()));
    console.log(
        `# ${own.node}'s ovnkube-node pod recreated: running again after ${running.toFixed(1)} s, its pod reaching every pod after ${recovered.toFixed(1)} s; ` +
            `probes between ${a.node} and ${b.node}: ${traffic.map((t) => `${t.lost}/${t.sent} lost`).join(", ")}`,
    );
    assertNoProbeLost(traffic, `while ${own.node}'s ovnkube-node pod was recreated`);
    const pod = ovnkubePodsOf(await lab().admin.list("v1", "Pod", { namespace: lab().model.kube.namespace })).find(
        (p) => p.placement === `ovnkube-node@${own.node}`,
    );
    assert.equal(pod?.phase, "Running");
    await assertUpAndRefreshChangeNothing(lab().offline);
});

test("destroy leaves no OVN process and every host as it was before the first up, the zones' database files gone", async () => {
    await assertDestroyLeavesHosts(family(), [SERVICE, NODE_PORT_SERVICE]);
    for (const host of lab().cluster.hosts)
        assert.notEqual((await hostExec(lab().cluster, host.name, ["test", "-e", NB_FILE])).code, 0, `${host.name}: ${NB_FILE} removed`);
});
