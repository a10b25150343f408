// Debian unstable ("sid") hosts with Kubernetes v1.36.2 and ovn-kubernetes v1.3.0's image, as
// `up --os debian-sid --kubernetes --ovn-kubernetes 1.3` makes them: each host on its own overlay
// of the cached Debian unstable base, reached over its own sshd; apt-get installs OVN 26.03 and
// Open vSwitch 4.0 there from the base's local repository (Northbound schema new enough for
// ovnkube 1.2 and 1.3); the upstream kubelets register v1.36.2 Nodes and run a pod shaped like
// ovnkube's node pod (init container, two containers, exec readiness probe) from the release's
// image, imported under the reference the manifests name; `down` leaves nothing. The first run on
// a machine builds the base and the images (about 2 min).
import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { after, before, test } from "node:test";
import type { IPod as Pod } from "kubernetes-models/v1/Pod";
import type { IPodSpec as PodSpec } from "kubernetes-models/v1/PodSpec";
import type { INode as Node } from "kubernetes-models/v1/Node";
import { KubeClient, pollUntil, type KubeObject } from "../../lab/kubeclient";
import { down, loadCluster } from "../../lab/localcluster";
import type { LocalCluster } from "../../lab/localcluster";
import type { LocalHost } from "../../lab/localcluster/state";
import { containerdDirOf } from "../../lab/localcluster/rootfs";
import { DEBIAN13_BASE, DEBIAN_SID_BASE, baseDir } from "../../lab/localcluster/debianBase";
import { inHostRoot } from "../../lab/localcluster/holder";
import { upWithKubernetes, type KubernetesLab } from "../../lab/localcluster/kubernetes";
import { ovnKubernetesLabImage } from "../../lab/localcluster/labReleases";
import { checkOwnRootHosts } from "./ownRootHosts";
import { runOk, runScript } from "../hosts/support/remote";
import { leftovers, markOf, processesIn, stillRunning, type ProcessMark } from "./leftovers";

const ID = "lhsidt";
const NS = "default";
const IMAGE = ovnKubernetesLabImage("1.3");
/** In a containerd root: the content store's blobs, and the metadata database each containerd writes. */
const BLOBS = "io.containerd.content.v1.content/blobs/sha256";
const META_DB = "io.containerd.metadata.v1.bolt/meta.db";
let cluster: LocalCluster;
let lab: KubernetesLab;
let admin: KubeClient;
let upSeconds = 0;

const seconds = (since: number) => Math.round((Date.now() - since) / 100) / 10;

before(async () => {
    await down(ID); // whatever an aborted earlier run left
    const started = Date.now();
    ({ cluster, kubernetes: lab } = await upWithKubernetes({
        id: ID,
        hosts: 2,
        os: "debian-sid",
        ovnKubernetes: "1.3",
        log: () => undefined,
    }));
    upSeconds = seconds(started);
    admin = KubeClient.fromKubeconfig(lab.controlPlane.adminKubeconfig.content);
});

after(async () => {
    admin?.close();
    await down(ID);
});

/** Output of a command run over the host's sshd; fails with its stderr on a non-zero exit. */
const overSsh = async (host: string, command: string) => (await runOk(cluster, host, command)).stdout;

/** x.y.z compared numerically. */
function versionAtLeast(version: string, min: string): boolean {
    const [a, b] = [version, min].map((v) => v.split(".").map(Number));
    for (let i = 0; i < 3; i++) if (a[i] !== b[i]) return a[i] > b[i];
    return true;
}

async function waitForPod(name: string, what: string, ok: (p: Pod) => boolean, timeoutMs = 60_000): Promise<Pod> {
    let last: Pod | undefined;
    try {
        return await pollUntil(
            async () => {
                last = (await admin.tryGet({ apiVersion: "v1", kind: "Pod", namespace: NS, name })) as unknown as Pod | undefined;
                return last && ok(last) ? last : undefined;
            },
            { timeoutMs, intervalMs: 250, what: `pod ${name} ${what}` },
        );
    } catch (e) {
        const host = cluster.hosts.find((h) => h.name === last?.spec?.nodeName) ?? cluster.hosts[0];
        const log = path.join(cluster.dir, "kubelet", host.name, "kubelet.log");
        throw new Error(
            `${(e as Error).message}\nlast status: ${JSON.stringify(last?.status, null, 1)}\nkubelet log:\n${fs.readFileSync(log, "utf8").slice(-2000)}`,
        );
    }
}

/** A hostNetwork pod bound to `node` (as a DaemonSet's pod is once scheduled), run by that host's kubelet; its `sleep` ignores TERM, so a short grace. */
async function createHostNetworkPod(name: string, node: string, spec: Omit<PodSpec, "nodeName" | "hostNetwork">): Promise<void> {
    await admin.create({
        apiVersion: "v1",
        kind: "Pod",
        metadata: { name, namespace: NS },
        spec: { nodeName: node, hostNetwork: true, terminationGracePeriodSeconds: 1, ...spec },
    } as KubeObject);
}

const isReady = (p: Pod) =>
    p.status?.phase === "Running" && p.status.conditions?.some((c) => c.type === "Ready" && c.status === "True") === true;

test("every host runs Debian unstable behind its own sshd, with arp_ignore=1 and the tools ovnkube's node calls", async (t) => {
    t.diagnostic(
        `up 2 --os debian-sid --kubernetes --ovn-kubernetes 1.3: ${upSeconds} s (includes building the base when it was not cached)`,
    );
    const releases = await checkOwnRootHosts(cluster, "debian-sid", baseDir(DEBIAN_SID_BASE));
    for (const h of cluster.hosts) {
        assert.match(releases.get(h.name)!, /^PRETTY_NAME="Debian GNU\/Linux \w+\/sid"$/m);
        assert.match(releases.get(h.name)!, /^\w+\/sid$/m);
        assert.equal((await overSsh(h.name, "sysctl -n net.ipv4.conf.all.arp_ignore")).trim(), "1");
        const tools = [
            "iptables",
            "nft",
            "conntrack",
            "ip",
            "ethtool",
            "sysctl",
            "mount",
            "nsenter",
            "modprobe",
            "update-ca-certificates",
            "ping",
            "nc",
            "apt-ftparchive",
        ];
        assert.equal(await overSsh(h.name, tools.map((c) => `command -v ${c} >/dev/null || echo "missing ${c}"`).join("; ")), "");
        // ovnkube's iptables rules land in nftables, as on a current distribution.
        assert.match(await overSsh(h.name, "iptables --version"), /\(nf_tables\)/);
    }
});

test("apt-get installs OVN 26.03 and Open vSwitch 4.0 from the base's local repository; the Northbound schema is new enough for ovnkube 1.3", async (t) => {
    const started = Date.now();
    // Hosts have no route to any mirror: this is the local repository only, as in the program's package step.
    const install =
        "apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q openvswitch-switch openvswitch-common ovn-central ovn-host ovn-common";
    await Promise.all(cluster.hosts.map((h) => overSsh(h.name, install)));
    t.diagnostic(`apt-get install on 2 hosts at once: ${seconds(started)} s`);
    const [central] = cluster.hosts;
    const versions = await overSsh(central.name, "dpkg-query -W -f '${Package} ${Version}\\n' ovn-central ovn-host openvswitch-switch");
    assert.match(versions, /^ovn-central 26\.03\.\d+/m);
    assert.match(versions, /^ovn-host 26\.03\.\d+/m);
    assert.match(versions, /^openvswitch-switch 4\.0\.\d+/m);
    assert.match(await overSsh(central.name, "ovs-vsctl --version"), /^ovs-vsctl \(Open vSwitch\) 4\.0\.\d+/);
    // policy-rc.d refused the package scripts' service starts. The host shares this machine's process
    // table, so only processes in its own network namespace are its own.
    assert.equal(
        (await runScript(cluster, central.name, "pgrep -x --ns $$ --nslist net ovsdb-server")).code,
        1,
        "no ovsdb-server runs after the install",
    );

    // A Northbound ovsdb-server of the installed OVN serves the schema ovnkube checks.
    const nb = await overSsh(
        central.name,
        [
            "set -e; mkdir -p /run/ovn /var/lib/ovn /var/log/ovn",
            "ovsdb-tool create /var/lib/ovn/lab-nb.db /usr/share/ovn/ovn-nb.ovsschema",
            "ovsdb-server --detach --no-chdir --unixctl=/run/ovn/lab-nb.ctl --pidfile=/run/ovn/lab-nb.pid --log-file=/var/log/ovn/lab-nb.log --remote=punix:/run/ovn/lab-nb.sock /var/lib/ovn/lab-nb.db",
            "ovsdb-client get-schema-version unix:/run/ovn/lab-nb.sock OVN_Northbound",
            'kill "$(cat /run/ovn/lab-nb.pid)"',
        ].join("\n"),
    );
    const served = nb.trim();
    t.diagnostic(`OVN_Northbound served: ${served}`);
    assert.match(served, /^\d+\.\d+\.\d+$/);
    assert.ok(versionAtLeast(served, "7.12.0"), `OVN_Northbound ${served} is older than ovnkube 1.3's 7.12.0`);
    const sb = (await overSsh(central.name, "ovsdb-tool schema-version /usr/share/ovn/ovn-sb.ovsschema")).trim();
    assert.ok(versionAtLeast(sb, "21.5.0"), `OVN_Southbound ${sb} is older than ovnkube 1.3's 21.5.0`);
    assert.equal(fs.existsSync(path.join(central.base!, "usr/bin/ovs-vsctl")), false, "the base stays without OVS");
});

test("Kubernetes v1.36.2 with the upstream kubelet and containerd on every host, ovn-kubernetes 1.3's image preloaded under its reference (blobs and layers shared as links, databases each host's own), recorded in cluster.json", async () => {
    assert.equal((await admin.getPath<{ gitVersion: string }>("/version")).gitVersion, "v1.36.2");
    const nodes = (await admin.list("v1", "Node")) as unknown as Node[];
    assert.deepEqual(nodes.map((n) => n.metadata!.name).sort(), ["node1", "node2"]);
    for (const n of nodes) {
        assert.equal(n.status!.nodeInfo!.kubeletVersion, "v1.36.2");
        assert.match(n.status!.nodeInfo!.containerRuntimeVersion, /^containerd:\/\/2\./);
        assert.match(n.status!.nodeInfo!.osImage, /^Debian GNU\/Linux \w+\/sid$/);
    }
    assert.deepEqual(loadCluster(ID).ovnKubernetes, { release: "1.3", image: IMAGE, kubelet: true });
    assert.deepEqual(lab.registrations, []);
    for (const h of cluster.hosts) {
        const images = (await overSsh(h.name, "ctr -n k8s.io images ls -q")).trim().split("\n");
        assert.ok(images.includes(IMAGE), `${h.name} has ${images.join(", ")}`);
    }
    const inode = (host: LocalHost, file: string) => fs.statSync(path.join(containerdDirOf(host.dir), file)).ino;
    const [a, b] = cluster.hosts;
    const blobs = fs.readdirSync(path.join(containerdDirOf(a.dir), BLOBS));
    assert.ok(blobs.length >= 3, blobs.join(", "));
    for (const blob of blobs) assert.equal(inode(a, `${BLOBS}/${blob}`), inode(b, `${BLOBS}/${blob}`), `blob ${blob} is one file`);
    assert.notEqual(inode(a, META_DB), inode(b, META_DB), "each containerd writes its own metadata");
});

test("a pod shaped like ovnkube's node pod (init container, two containers, exec readiness probe) turns Ready on a Debian unstable host", async (t) => {
    const node = cluster.hosts[1];
    const started = Date.now();
    await createHostNetworkPod("twocontainers", node.name, {
        initContainers: [
            { name: "install-cni", image: IMAGE, command: ["/bin/sh", "-c", "/usr/libexec/cni/ovn-k8s-cni-overlay --version | head -1"] },
        ],
        containers: [
            {
                name: "ovnkube-controller",
                image: IMAGE,
                command: ["/bin/sh", "-c", "/usr/bin/ovnkube --version | head -1; touch /run/lab-ready; exec sleep 3600"],
                readinessProbe: {
                    exec: { command: ["/bin/sh", "-c", "test -e /run/lab-ready && /usr/bin/ovn-kube-util --version >/dev/null"] },
                    periodSeconds: 1,
                },
            },
            { name: "ovn-controller", image: IMAGE, command: ["/bin/sh", "-c", "exec sleep 3600"] },
        ],
    });
    const ready = await waitForPod("twocontainers", "Ready with both containers running", isReady);
    const statuses = ready.status!.containerStatuses!;
    assert.deepEqual(statuses.map((c) => [c.name, c.ready, c.started, !!c.state?.running, c.restartCount]).sort(), [
        ["ovn-controller", true, true, true, 0],
        ["ovnkube-controller", true, true, true, 0],
    ]);
    const init = ready.status!.initContainerStatuses![0];
    assert.deepEqual([init.name, init.state?.terminated?.exitCode, init.state?.terminated?.reason], ["install-cni", 0, "Completed"]);
    const logDir = `/var/log/pods/${NS}_twocontainers_${ready.metadata!.uid}`;
    assert.match(fs.readFileSync(inHostRoot(node.holderPid, `${logDir}/install-cni/0.log`), "utf8"), /Version: 1\.3\.0/);
    assert.match(fs.readFileSync(inHostRoot(node.holderPid, `${logDir}/ovnkube-controller/0.log`), "utf8"), /Version: 1\.3\.0/);
    t.diagnostic(`two-container pod Ready after ${seconds(started)} s`);
    await admin.delete({ apiVersion: "v1", kind: "Pod", namespace: NS, name: "twocontainers" });
    await admin.waitUntilGone({ apiVersion: "v1", kind: "Pod", namespace: NS, name: "twocontainers" }, 40_000);
});

test("down ends every process (hosts, control plane, containerd, kubelets, pods) and removes every namespace, link, mount and directory; the base stays cached", async () => {
    const { netns } = leftovers(ID);
    const marks: ProcessMark[] = [...processesIn(netns), ...cluster.hosts.flatMap((h) => markOf(h.holderPid))];
    assert.ok(marks.length >= 10, `holders, sshds, containerd, kubelets and the control plane: ${marks.length}`);
    await down(ID);
    assert.deepEqual(stillRunning(marks), []);
    assert.deepEqual(leftovers(ID), { netns: [], links: [], mounts: [] });
    assert.equal(fs.existsSync(cluster.dir), false);
    assert.equal(fs.existsSync(path.join(baseDir(DEBIAN_SID_BASE), "etc/os-release")), true);
});

test("the unstable base has its own cache directory, named after its recipe: Debian 13's host packages plus the images' busybox", () => {
    const dir = baseDir(DEBIAN_SID_BASE, "/cache");
    assert.match(dir, /^\/cache\/debian-sid-[0-9a-f]{12}$/);
    assert.notEqual(path.basename(dir).slice(-12), path.basename(baseDir(DEBIAN13_BASE, "/cache")).slice(-12));
    assert.equal(DEBIAN_SID_BASE.suite, "sid");
    assert.deepEqual(
        DEBIAN_SID_BASE.include.filter((p) => !DEBIAN13_BASE.include.includes(p)),
        ["containerd", "runc", "busybox-static"],
    );
    // Debian 13's kubelet runtime is unstable's containerd and runc, the same packages.
    assert.deepEqual(DEBIAN13_BASE.otherSuite, { suite: "sid", packages: ["containerd", "runc"] });
    assert.deepEqual(DEBIAN_SID_BASE.repoPackages, DEBIAN13_BASE.repoPackages);
});
