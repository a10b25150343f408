// User-defined networks against a real API server (the lab's v1.36.2) and the real ovnkube v1.3.0
// cluster manager, with the stack's multiNetwork, networkSegmentation and networkConnect on: the
// program's CRDs (the NetworkAttachmentDefinition CRD from the lab's mirror: its stand-in, or the
// pinned file with OVN_K8S_LAB_GIT) and objects are applied as the program applies them, and the cluster manager runs
// with the DaemonSet's command line under the program's least-privilege account. As a user drives
// it: two namespaces created with the primary-UDN label, each with a Layer3 UDN on the same subnet,
// one with a Layer2 UDN, a ClusterUserDefinedNetwork over two more, ClusterNetworkConnects of the
// overlapping two (refused) and of two others, and a primary UDN in a namespace without the label. The cluster manager renders
// each accepted network into a NetworkAttachmentDefinition, reports it, gives every node a subnet
// of each Layer3 network and the connect its subnets; the unlabelled namespace gets nothing. (Pods on UDNs need ovnkube-node's VRFs and systemd's D-Bus
// on the hosts, which the lab's hosts lack: docs/facts/udn.md §5.)
import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { after, before, test } from "node:test";
import { pollUntil, type KubeClient, type KubeObject } from "../../lab/kubeclient";
import { writeLabCrdMirror } from "../../lab/localcluster/labCrdMirror";
import { isLiveProcess } from "../../lab/localcluster/namespaces";
import { featureSettings } from "../../components/config/features";
import { releaseCrdUrls } from "../../components/config/releases";
import { crdUrl } from "../../components/model/clusterModel";
import { contains, parseCidr } from "../../components/values/cidr";
import type { KubeModel } from "../../components/model/types";
import { SERVICE_SUBNET, startKubeLab, type KubeLab } from "../support/kubeControlPlane";
import { applyAll, registeredNode, startClusterManager, type ClusterManagerRun } from "./clusterManagerRun";
import { interconnectModel } from "./fixture";

const ID = "lkudns";
const FEATURES = { multiNetwork: true, networkSegmentation: true, networkConnect: true } as const;
/** go-controller/pkg/types/const.go:255 at v1.3.0. */
const PRIMARY_UDN_LABEL = "k8s.ovn.org/primary-user-defined-network";
const OVN = "k8s.ovn.org/v1";
const NAD = "k8s.cni.cncf.io/v1";
/** The two Layer3 UDNs share it: each network has its own routers. */
const OVERLAPPING = "10.200.0.0/16";
const LAYER2 = "10.210.0.0/16";
const SHARED = "10.220.0.0/16";
const CONNECT = "192.168.240.0/24";
/** go-controller/pkg/util/network_connect.go:24 at v1.3.0: the subnets the cluster manager gave each network. */
const CONNECT_SUBNETS = "k8s.ovn.org/network-connect-subnet";

let lab: KubeLab;
let admin: KubeClient;
let model: KubeModel;
let manager: ClusterManagerRun;
const work = fs.mkdtempSync(path.join(os.tmpdir(), "ovnkube-udn-"));

const namespace = (name: string, primary = true): KubeObject => ({
    apiVersion: "v1",
    kind: "Namespace",
    metadata: { name, labels: primary ? { [PRIMARY_UDN_LABEL]: "" } : {} },
});
const layer3 = (cidr: string) => ({ topology: "Layer3", layer3: { role: "Primary", subnets: [{ cidr, hostSubnet: 24 }] } });

type Condition = { type: string; status: string; reason?: string; message?: string };
const conditions = (o: KubeObject) => ((o.status as { conditions?: Condition[] } | undefined)?.conditions ?? []) as Condition[];

/** Waits, bounded, until each named condition of the object has its status (the cluster manager sets them one by one); returns them all. */
async function awaitConditions(
    ref: { kind: string; name: string; namespace?: string },
    want: Readonly<Record<string, "True" | "False">>,
): Promise<Condition[]> {
    return pollUntil(
        async () => {
            const got = conditions(await admin.get({ apiVersion: OVN, ...ref }));
            if (Object.entries(want).some(([type, status]) => got.find((c) => c.type === type)?.status !== status))
                throw new Error(JSON.stringify(got));
            return got;
        },
        {
            timeoutMs: 60_000,
            intervalMs: 300,
            what: `${ref.kind} ${ref.namespace ?? ""}/${ref.name} ${JSON.stringify(want)}`,
            giveUp: manager.exited,
        },
    );
}

/** The NetworkAttachmentDefinition's CNI configuration, as the cluster manager rendered it. */
async function nadConfig(ns: string, name: string): Promise<Record<string, unknown>> {
    const nad = await admin.get({ apiVersion: NAD, kind: "NetworkAttachmentDefinition", namespace: ns, name });
    return JSON.parse((nad.spec as { config: string }).config) as Record<string, unknown>;
}

/** Every node's subnets by network, from the cluster manager's `k8s.ovn.org/node-subnets`, once each names `networks`. */
async function nodeSubnets(networks: string[]): Promise<Record<string, Record<string, string[]>>> {
    return pollUntil(
        async () => {
            const out: Record<string, Record<string, string[]>> = {};
            for (const n of model.nodes) {
                const node = await admin.get({ apiVersion: "v1", kind: "Node", name: n.name });
                const subnets = JSON.parse(node.metadata.annotations?.["k8s.ovn.org/node-subnets"] ?? "{}") as Record<string, string[]>;
                if (!networks.every((k) => subnets[k])) throw new Error(`${n.name}: ${JSON.stringify(subnets)}`);
                out[n.name] = subnets;
            }
            return out;
        },
        { timeoutMs: 60_000, intervalMs: 300, what: `every node's subnets of ${networks.join(", ")}`, giveUp: manager.exited },
    );
}

const inside = (cidr: string, outer: string) => contains(parseCidr(outer), parseCidr(cidr));

before(async () => {
    lab = await startKubeLab(ID);
    admin = lab.admin;
    const cp = lab.controlPlane;
    const mirror = writeLabCrdMirror(ID, "1.3", FEATURES);
    const base = interconnectModel();
    model = interconnectModel({
        config: { ...base.config, k8s_apiserver: cp.apiServerUrl, svc_cidr: SERVICE_SUBNET },
        features: featureSettings(FEATURES),
        crdUrls: releaseCrdUrls("1.3", FEATURES).map((u) => crdUrl(u, mirror)),
        // No ovnkube-identity runs here: its webhooks would refuse the nodes' writes.
        identity: undefined,
    });
    for (const n of model.nodes) await admin.create(registeredNode(n.name, model.masterNodes.includes(n.name)));
    await applyAll(admin, model);
    manager = await startClusterManager(cp, admin, model, work);
});

after(async () => {
    if (manager && isLiveProcess(manager.pid)) process.kill(manager.pid, "SIGKILL");
    await lab?.stop();
    fs.rmSync(work, { recursive: true, force: true });
});

test("the NetworkAttachmentDefinition CRD is served from the mirror, the UDN CRDs from the release", async () => {
    const crds = (await admin.list("apiextensions.k8s.io/v1", "CustomResourceDefinition")).map((c) => c.metadata.name);
    for (const name of [
        "network-attachment-definitions.k8s.cni.cncf.io",
        "userdefinednetworks.k8s.ovn.org",
        "clusteruserdefinednetworks.k8s.ovn.org",
        "clusternetworkconnects.k8s.ovn.org",
    ])
        assert.ok(crds.includes(name), name);
    assert.match(manager.argv.join(" "), /-enable-multi-network .*-enable-network-segmentation .*-enable-network-connect/);
});

test("two Layer3 UDNs on the same subnet: each rendered into its namespace's NAD, every node a subnet of each", async () => {
    for (const ns of ["blue", "red"]) {
        await admin.create(namespace(ns));
        await admin.create({
            apiVersion: OVN,
            kind: "UserDefinedNetwork",
            metadata: { name: "net", namespace: ns },
            spec: layer3(OVERLAPPING),
        });
    }
    for (const ns of ["blue", "red"]) {
        const got = await awaitConditions(
            { kind: "UserDefinedNetwork", name: "net", namespace: ns },
            { NetworkCreated: "True", NetworkAllocationSucceeded: "True" },
        );
        assert.deepEqual(got.map((c) => `${c.type}=${c.status}`).sort(), ["NetworkAllocationSucceeded=True", "NetworkCreated=True"], ns);
        const config = await nadConfig(ns, "net");
        assert.equal(config.type, "ovn-k8s-cni-overlay");
        assert.equal(config.topology, "layer3");
        assert.equal(config.role, "primary");
        assert.equal(config.subnets, `${OVERLAPPING}/24`);
        assert.equal(config.netAttachDefName, `${ns}/net`);
    }
    const subnets = await nodeSubnets(["blue_net", "red_net"]);
    for (const [node, s] of Object.entries(subnets)) {
        for (const net of ["blue_net", "red_net"]) assert.ok(inside(s[net][0], OVERLAPPING), `${node} ${net} ${s[net]}`);
        // The default network keeps the plan's subnet.
        assert.deepEqual(s.default, model.nodes.find((n) => n.name === node)!.subnets, node);
    }
});

test("a Layer2 UDN and a ClusterUserDefinedNetwork over two namespaces are rendered, the CUDN in both", async () => {
    await admin.create(namespace("green"));
    await admin.create({
        apiVersion: OVN,
        kind: "UserDefinedNetwork",
        metadata: { name: "l2", namespace: "green" },
        spec: { topology: "Layer2", layer2: { role: "Primary", subnets: [LAYER2] } },
    });
    for (const ns of ["c1", "c2"]) await admin.create(namespace(ns));
    await admin.create({
        apiVersion: OVN,
        kind: "ClusterUserDefinedNetwork",
        metadata: { name: "shared" },
        spec: {
            namespaceSelector: { matchExpressions: [{ key: "kubernetes.io/metadata.name", operator: "In", values: ["c1", "c2"] }] },
            network: layer3(SHARED),
        },
    });
    await awaitConditions({ kind: "UserDefinedNetwork", name: "l2", namespace: "green" }, { NetworkCreated: "True" });
    const l2 = await nadConfig("green", "l2");
    assert.equal(l2.topology, "layer2");
    assert.equal(l2.subnets, LAYER2);
    const cudn = await awaitConditions({ kind: "ClusterUserDefinedNetwork", name: "shared" }, { NetworkCreated: "True" });
    assert.match(cudn.find((c) => c.type === "NetworkCreated")!.message ?? "", /\[c1, c2\]/);
    for (const ns of ["c1", "c2"]) assert.equal((await nadConfig(ns, "shared")).netAttachDefName, `${ns}/shared`);
    const subnets = await nodeSubnets(["cluster_udn_shared"]);
    for (const [node, s] of Object.entries(subnets)) assert.ok(inside(s.cluster_udn_shared[0], SHARED), `${node} ${s.cluster_udn_shared}`);
});

/** A ClusterNetworkConnect of the primary UDNs of `namespaces`. */
const connect = (name: string, namespaces: string[]): KubeObject => ({
    apiVersion: OVN,
    kind: "ClusterNetworkConnect",
    metadata: { name },
    spec: {
        networkSelectors: [
            {
                networkSelectionType: "PrimaryUserDefinedNetworks",
                primaryUserDefinedNetworkSelector: {
                    namespaceSelector: { matchExpressions: [{ key: "kubernetes.io/metadata.name", operator: "In", values: namespaces }] },
                },
            },
        ],
        connectSubnets: [{ cidr: CONNECT, networkPrefix: 27 }],
        connectivity: ["PodNetwork"],
    },
});

/** Waits, bounded, until the connect's Accepted condition is `status`; returns the object. */
async function awaitAccepted(name: string, status: "True" | "False"): Promise<KubeObject> {
    return pollUntil(
        async () => {
            const got = await admin.get({ apiVersion: OVN, kind: "ClusterNetworkConnect", name });
            const accepted = conditions(got).find((c) => c.type === "Accepted");
            if (accepted?.status !== status || (status === "True" && !got.metadata.annotations?.[CONNECT_SUBNETS]))
                throw new Error(JSON.stringify(got.status));
            return got;
        },
        { timeoutMs: 60_000, intervalMs: 300, what: `ClusterNetworkConnect ${name} Accepted ${status}`, giveUp: manager.exited },
    );
}

test("a ClusterNetworkConnect of the two overlapping UDNs is refused naming the overlap; one of blue and the Layer2 UDN gets subnets of its range", async () => {
    await admin.create(connect("blue-red", ["blue", "red"]));
    const refused = await awaitAccepted("blue-red", "False");
    assert.match(conditions(refused).find((c) => c.type === "Accepted")!.message ?? "", /overlapping subnets: network (red|blue)_net/);
    await admin.create(connect("blue-green", ["blue", "green"]));
    const cnc = await awaitAccepted("blue-green", "True");
    const allocated = JSON.stringify(JSON.parse(cnc.metadata.annotations![CONNECT_SUBNETS]));
    const cidrs = allocated.match(/\d+\.\d+\.\d+\.\d+\/\d+/g) ?? [];
    assert.ok(cidrs.length >= 2, allocated);
    for (const c of cidrs) assert.ok(inside(c, CONNECT), `${c} of ${allocated}`);
});

test("a primary UDN in a namespace created without the label gets no NAD, and the API server refused the cluster manager nothing", async () => {
    await admin.create(namespace("plain", false));
    await admin.create({
        apiVersion: OVN,
        kind: "UserDefinedNetwork",
        metadata: { name: "net", namespace: "plain" },
        spec: layer3("10.230.0.0/16"),
    });
    const got = await awaitConditions({ kind: "UserDefinedNetwork", name: "net", namespace: "plain" }, { NetworkCreated: "False" });
    assert.match(got.find((c) => c.type === "NetworkCreated")!.message ?? "", /primary-user-defined-network|plain/);
    assert.equal(await admin.tryGet({ apiVersion: NAD, kind: "NetworkAttachmentDefinition", namespace: "plain", name: "net" }), undefined);
    assert.equal(manager.exited(), undefined, "the cluster manager keeps running");
    assert.doesNotMatch(fs.readFileSync(manager.log, "utf8"), /forbidden/i);
});
