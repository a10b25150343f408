// An ovn-kubernetes upgrade in place, on real parts only: 2 Debian unstable hosts with the local
// Kubernetes v1.36 run ovn-kubernetes 1.2 in its interconnect architecture, with a Deployment's pods
// on both nodes; the stack's `ovnkube.version` goes to 1.3 and one `up` moves the CRDs, the cluster
// manager and then the nodes to the new release. It proves that preview says what will roll and
// touches nothing, that the pods keep their addresses and lose no probe (20 per second, both ways)
// while the release rolls, and keep reaching each other, that the new
// release's pods run with its image, and that going back a release or changing the architecture is
// refused at preview, naming both and the way. Phases print their wall time.
import assert from "node:assert/strict";
import * as fs from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { after, before, test } from "node:test";
import { releaseOf } from "../../components/config/releases";
import { down } from "../../lab/localcluster";
import { startDemoDeployment, type KubePod } from "../../lab/localcluster/kubeWorkloads";
import { assertPodsPing } from "./support/workloadProof";
import { apply, preview, type OperationResult } from "../../lab/offline/api";
import { phase } from "./support/phase";
import { pullReleaseImage } from "../../lab/localcluster/kubernetes";
import { bringUpOvnkubeLab, writeLabStack, type OvnkubeLab } from "../../lab/scenarios/ovnkubeLab";
import { ovnkubePodsOf, waitOvnkubePodsRunning, ovnkubeImages } from "../../lab/scenarios/ovnkubePods";
import { upgradeUnderProbes } from "../../lab/scenarios/ovnkubeUpgrade";
import { validateConfig } from "../../components/plan/validate";
import { buildClusterModel } from "../../components/model/clusterModel";
import { readStackFile } from "../../components/config/stackFile";

const ID = "e2eupg";
const HOSTS = 2;
const SPREAD = "e2e-upgrade";

let work: string;
let lab: OvnkubeLab;

const changed = (r: OperationResult) =>
    r.ops
        .filter((o) => o.op !== "same")
        .map((o) => `${o.op} ${o.name}`)
        .sort();
const podIps = (pods: KubePod[]) => Object.fromEntries(pods.map((p) => [p.name, p.ip]));

/** The images the running ovnkube pods were made from. */
const runningImages = () => ovnkubeImages(lab.admin, lab.model.kube);

before(async () => {
    await down(ID);
    work = fs.mkdtempSync(path.join(tmpdir(), "e2e-upgrade-"));
});

after(async () => {
    lab?.admin.close();
    await down(ID);
    if (work) fs.rmSync(work, { recursive: true, force: true });
});

test("1.2 → 1.3 in one up: preview names what rolls, the pods keep their addresses and reach each other, the new release runs", async () => {
    const up = await phase("bring-up and up on 1.2", () =>
        bringUpOvnkubeLab({ id: ID, hosts: HOSTS, os: "debian-sid", workDir: work, release: "1.2" }),
    );
    lab = up.lab;
    assert.equal(up.first.ok, true, up.first.error);
    assert.equal(lab.model.kube.version, "1.2");
    await waitOvnkubePodsRunning(lab.admin, lab.model.kube, 120_000);
    assert.deepEqual(await runningImages(), [releaseOf("1.2").image]);

    const pods = await phase("workloads", () =>
        startDemoDeployment(lab.admin, lab.cluster, { name: SPREAD, replicas: HOSTS, command: ["sleep", "infinity"] }),
    );
    await assertPodsPing(lab, pods);

    // No registry here: the nodes get 1.3's image before the up that names it.
    await phase("1.3's image on the nodes", () => pullReleaseImage(lab.cluster, lab.kubernetes, "1.3"));
    const stackFile = writeLabStack(lab, lab.offline.stackFile!, { ovnkube: { version: "1.3" } });
    const to13 = buildClusterModel(validateConfig(readStackFile(stackFile)));

    const seen = await phase("preview 1.2 → 1.3", () => preview(lab.offline));
    assert.equal(seen.ok, true, seen.error);
    const plan = changed(seen);
    console.log(`preview: ${plan.join(", ")}`);
    // The release's DaemonSets roll in place; 1.3's two new CRDs are created; nothing is replaced or deleted.
    for (const ds of ["ovn-ovnkube-control-plane", "ovn-ovnkube-node", "ovn-ovnkube-identity"])
        assert.ok(plan.includes(`update ${ds}`), `${ds} in ${JSON.stringify(plan)}`);
    assert.ok(
        plan.includes("create ovn-ovnkube-crd-vteps.k8s.ovn.org") &&
            plan.includes("create ovn-ovnkube-crd-clusternetworkconnects.k8s.ovn.org"),
        JSON.stringify(plan),
    );
    assert.deepEqual(
        plan.filter((o) => /^(replace|delete)/.test(o)),
        [],
    );
    assert.deepEqual(await runningImages(), [releaseOf("1.2").image], "preview changed nothing");

    // Probes both ways between the pods on the two nodes, 20 per second, from before the up until
    // every ovnkube pod of the new release runs.
    const rollout = await phase("up 1.2 → 1.3", () => upgradeUnderProbes(lab, to13.kube, [pods[0], pods[1]]));
    assert.equal(rollout.result.ok, true, rollout.result.error);
    const traffic = rollout.traffic;
    console.log(`pod-to-pod probes during the upgrade: ${traffic.map((t) => `${t.lost}/${t.sent} lost`).join(", ")}`);
    assert.deepEqual(
        traffic.map((t) => t.lost),
        [0, 0],
        "no probe between the pods was lost while the release rolled",
    );
    assert.ok(
        traffic.every((t) => t.sent > 20),
        "probes ran through the upgrade",
    );
    assert.deepEqual(await runningImages(), [releaseOf("1.3").image]);

    // The pods were never touched: same pods, same addresses, and they still reach each other.
    const after = (await lab.admin.list("v1", "Pod", { namespace: "default", labelSelector: `app=${SPREAD}` })).map((p) => [
        p.metadata.name,
        (p.status as { podIP: string }).podIP,
    ]);
    assert.deepEqual(Object.fromEntries(after), podIps(pods));
    await phase("pods after the upgrade", () => assertPodsPing(lab, pods));
    const again = await apply(lab.offline);
    assert.deepEqual(changed(again), [], "a second up after the upgrade changes nothing");
    assert.deepEqual(
        ovnkubePodsOf(await lab.admin.list("v1", "Pod", { namespace: lab.model.kube.namespace })).filter((p) => p.phase !== "Running"),
        [],
    );
});

test("going back to 1.2, or to the centralized architecture, is refused at preview, naming both and the way", async () => {
    assert.ok(lab, "the upgrade test did not bring the cluster up");
    writeLabStack(lab, lab.offline.stackFile!, { ovnkube: { version: "1.2" } });
    const back = await preview(lab.offline);
    assert.equal(back.ok, false);
    assert.match(
        back.error ?? "",
        /ovnkube\.version 1\.3 → 1\.2 stopped before anything was changed: ovn-kubernetes upgrades forward only/,
    );

    writeLabStack(lab, lab.offline.stackFile!, { ovnkube: { version: "1.3", architecture: "centralized" }, centrals: 1 });
    const other = await preview(lab.offline);
    assert.equal(other.ok, false);
    assert.match(
        other.error ?? "",
        /ovnkube\.architecture interconnect → centralized stopped before anything was changed: .*removed its zone migration in 1\.3/,
    );
    assert.deepEqual(await runningImages(), [releaseOf("1.3").image], "nothing changed");
});
