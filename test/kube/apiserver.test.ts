// The ovnkube objects against a real Kubernetes API server (the lab's v1.36.2 with its controller
// manager and scheduler, Node,RBAC authorization) and the real ovnkube v1.3.0: the API server
// accepts the release's CRDs and every object as server-side apply sends it, the DaemonSet
// controller and the scheduler put the control plane on the masters and exactly one ovnkube-node
// pod of the right group on every node, the Node plan (with interconnect, the zone label too) lands
// as planned and is restored over ovnkube's own writes, RBAC lets each account make the calls its
// ovnkube makes and no others, in both architectures, and the interconnect cluster manager, with
// the DaemonSet's own command line and the cluster manager's account, wins its leader election
// through the Role's Lease and keeps the plan: the planned node-ids and subnets, and the transit
// addresses the model predicts.
import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { after, before, test } from "node:test";
import { KubeApiError, KubeClient, pollUntil, type KubeObject } from "../../kubeclient";
import type { ControlPlane } from "../../localcluster/kube";
import { labBinary } from "../../localcluster/kube/labBinaries";
import { logTail, startInNetns } from "../../localcluster/kube/daemon";
import { ovnKubernetesLabRelease } from "../../localcluster/labReleases";
import { isLiveProcess } from "../../localcluster/namespaces";
import { loadCrds } from "../../components/kube/crds";
import { kubeManifests, manifestList } from "../../components/kube/manifests";
import { NODE_PLAN_APPLY } from "../../components/kube/node-annotations";
import { CLUSTER_MANAGER_LOG } from "../../components/kube/ovnkube-args";
import type { Container, DaemonSet } from "../../components/kube/types";
import type { KubeModel } from "../../components/model/types";
import { SERVICE_SUBNET, startKubeLab, type KubeLab } from "../support/kubeControlPlane";
import { interconnectModel, kubeModel } from "./fixture";
import { expandedCommand } from "./inspect";

const ID = "lkapi";
const APPLIER = "pulumi-kubernetes";
const NAMESPACE = "ovn-kubernetes";
const LEASE = "ovn-kubernetes-master";

let lab: KubeLab;
let cp: ControlPlane;
let admin: KubeClient;
/** The interconnect cluster this file deploys; `centralized` is the same cluster's other architecture. */
let model: KubeModel;
let centralized: KubeModel;
/** Processes this file starts in the control plane's namespace (stop would end them too). */
const helperPids: number[] = [];
const work = fs.mkdtempSync(path.join(os.tmpdir(), "ovnkube-api-"));

const nodeRef = (name: string) => ({ apiVersion: "v1", kind: "Node", name });
const annotations = (o: KubeObject) => o.metadata.annotations ?? {};

/** A Node as a kubelet registers it: capacity for the scheduler, masters labelled control-plane. */
function registeredNode(name: string, master: boolean): KubeObject {
    const resources = { cpu: "4", memory: "8Gi", pods: "110" };
    return {
        apiVersion: "v1",
        kind: "Node",
        metadata: {
            name,
            labels: { "kubernetes.io/hostname": name, "kubernetes.io/os": "linux", ...(master ? { "node-role.kubernetes.io/control-plane": "" } : {}) },
            annotations: { "node.alpha.kubernetes.io/ttl": "0" },
        },
        status: { capacity: resources, allocatable: resources },
    };
}

/** A token of a service account from the TokenRequest API, as the kubelet projects it into the pods. */
async function serviceAccountToken(account: string): Promise<string> {
    const answer = await admin.transport.request<{ status: { token: string } }>("POST", `/api/v1/namespaces/${NAMESPACE}/serviceaccounts/${account}/token`, {
        body: { apiVersion: "authentication.k8s.io/v1", kind: "TokenRequest", spec: { expirationSeconds: 3600 } },
    });
    return answer.status.token;
}

type Attrs = { group?: string; subresource?: string; namespace?: string; name?: string };
type Request = [verb: string, resource: string, attrs?: Attrs];

/** The API server's own RBAC decision for a service account of the namespace. */
async function accountMay(account: string, [verb, resource, attrs = {}]: Request): Promise<boolean> {
    const review = await admin.create({
        apiVersion: "authorization.k8s.io/v1",
        kind: "SubjectAccessReview",
        metadata: {},
        spec: {
            user: `system:serviceaccount:${NAMESPACE}:${account}`,
            groups: ["system:serviceaccounts", `system:serviceaccounts:${NAMESPACE}`, "system:authenticated"],
            resourceAttributes: { verb, resource, group: attrs.group ?? "", subresource: attrs.subresource, namespace: attrs.namespace, name: attrs.name },
        },
    });
    return (review.status as { allowed: boolean }).allowed;
}

/** Asserts the API server's decision for every request, naming the account and the request. */
async function assertDecisions(account: string, allowed: Request[], denied: Request[]): Promise<void> {
    for (const r of allowed) assert.equal(await accountMay(account, r), true, `${account} may ${r[0]} ${r[1]} ${JSON.stringify(r[2] ?? {})}`);
    for (const r of denied) assert.equal(await accountMay(account, r), false, `${account} may not ${r[0]} ${r[1]} ${JSON.stringify(r[2] ?? {})}`);
}

/** Applies every object of `m` as the component does: the release's CRDs first, then the manifests in order. */
async function applyAll(m: KubeModel): Promise<void> {
    for (const crd of await loadCrds(m.crdUrls)) await admin.apply(crd as unknown as KubeObject, { fieldManager: APPLIER });
    for (const obj of manifestList(kubeManifests(m))) await admin.apply(obj as unknown as KubeObject, obj.kind === "Node" ? NODE_PLAN_APPLY : { fieldManager: APPLIER });
}

const READ = ["get", "list", "watch"];
const STATUS_WRITES = ["patch", "update"];
/** What every ovnkube reads and writes: its informers, Node annotations through status, events. */
const EVERY_ROLE: Request[] = [
    ...["pods", "nodes", "services", "namespaces"].flatMap((r) => READ.map((v): Request => [v, r])),
    ...READ.map((v): Request => [v, "endpointslices", { group: "discovery.k8s.io" }]),
    ...STATUS_WRITES.map((v): Request => [v, "nodes", { subresource: "status" }]),
    ["create", "events", { namespace: "default" }],
];
/** The network controller's: network policies, pod and service annotations through status. */
const CONTROLLER: Request[] = [
    ...READ.map((v): Request => [v, "networkpolicies", { group: "networking.k8s.io" }]),
    ...["pods", "services"].flatMap((r) => STATUS_WRITES.map((v): Request => [v, r, { subresource: "status", namespace: "default" }])),
];
const ZONE_CONTROLLER: Request[] = STATUS_WRITES.map((v): Request => [v, "namespaces", { subresource: "status" }]);
const LEADER_ELECTION: Request[] = [
    ["create", "leases", { group: "coordination.k8s.io", namespace: NAMESPACE }],
    ["get", "leases", { group: "coordination.k8s.io", namespace: NAMESPACE, name: LEASE }],
    ["update", "leases", { group: "coordination.k8s.io", namespace: NAMESPACE, name: LEASE }],
];
/** Nobody's: objects themselves, creation and deletion, secrets, ConfigMaps, endpoints, other Leases, CRD groups. */
const NOBODY: Request[] = [
    ["patch", "nodes"],
    ["patch", "pods", { namespace: "default" }],
    ["delete", "nodes"],
    ["create", "pods", { namespace: "default" }],
    ["get", "secrets", { namespace: NAMESPACE }],
    ["get", "configmaps", { namespace: NAMESPACE, name: "ovn-config" }],
    ["list", "endpoints", { namespace: "default" }],
    ["update", "leases", { group: "coordination.k8s.io", namespace: NAMESPACE, name: "someone-elses-lock" }],
    ["create", "leases", { group: "coordination.k8s.io", namespace: "kube-system" }],
    ["list", "egressips", { group: "k8s.ovn.org" }],
];

before(async () => {
    lab = await startKubeLab(ID);
    ({ controlPlane: cp, admin } = lab);
    const config = { k8s_apiserver: cp.apiServerUrl, svc_cidr: SERVICE_SUBNET };
    model = interconnectModel({ config: { ...interconnectModel().config, ...config } });
    centralized = kubeModel({ config: { ...kubeModel().config, ...config, OvnNorth: "tcp:127.0.0.1:6641", OvnSouth: "tcp:127.0.0.1:6642" } });
    for (const n of model.nodes) await admin.create(registeredNode(n.name, model.masterNodes.includes(n.name)));
});

after(async () => {
    for (const pid of helperPids) if (isLiveProcess(pid)) process.kill(pid, "SIGKILL");
    await lab?.stop();
    fs.rmSync(work, { recursive: true, force: true });
});

test("the API server accepts the release's CRDs and every object as server-side apply sends it, the Nodes' plan before the DaemonSets", async () => {
    await applyAll(model);
    const crds = await admin.list("apiextensions.k8s.io/v1", "CustomResourceDefinition");
    const ours = crds.map((c) => c.metadata.name ?? "").filter((name) => name.endsWith(".k8s.ovn.org"));
    assert.equal(ours.length, model.crdUrls.length);
    assert.ok(ours.includes("egressips.k8s.ovn.org") && ours.includes("userdefinednetworks.k8s.ovn.org"), ours.join(", "));
    const m = kubeManifests(model);
    for (const ds of [m.controlPlane, ...m.nodes]) {
        const live = (await admin.get({ apiVersion: "apps/v1", kind: "DaemonSet", namespace: NAMESPACE, name: ds.metadata.name })) as unknown as DaemonSet;
        assert.deepEqual(live.spec.template.spec.containers[0].args, ds.spec.template.spec.containers[0].args, ds.metadata.name);
        assert.equal(live.spec.template.spec.serviceAccountName, ds.spec.template.spec.serviceAccountName);
        assert.deepEqual(live.spec.template.spec.volumes, ds.spec.template.spec.volumes);
    }
});

test("the DaemonSet controller and the scheduler put one ovnkube-node of the right group on every node, ovnkube-control-plane on the masters", async () => {
    const expected = new Map<string, string[]>([
        ["ovnkube-control-plane", ["master-0", "master-1"]],
        ...model.nodeGroups.map((g): [string, string[]] => [g.name, [...g.nodes].sort()]),
    ]);
    const placed = await pollUntil(
        async () => {
            const pods = await admin.list("v1", "Pod", { namespace: NAMESPACE });
            const byDs = new Map<string, string[]>();
            for (const p of pods) {
                const ds = p.metadata.labels?.name ?? "";
                const node = (p.spec as { nodeName?: string }).nodeName;
                if (node) byDs.set(ds, [...(byDs.get(ds) ?? []), node].sort());
            }
            const complete = [...expected].every(([ds, nodes]) => (byDs.get(ds) ?? []).length >= nodes.length);
            return complete ? byDs : undefined;
        },
        { timeoutMs: 60_000, what: "a scheduled pod of every DaemonSet on each of its nodes" },
    );
    assert.deepEqual(Object.fromEntries(placed), Object.fromEntries(expected));
    const nodePods = [...placed].filter(([ds]) => ds !== "ovnkube-control-plane").flatMap(([, nodes]) => nodes);
    assert.equal(new Set(nodePods).size, model.nodes.length, "one ovnkube-node per node");
});

test("the Node plan and zone label land beside the kubelet's and are restored over ovnkube's own write", async () => {
    for (const n of model.nodes) {
        const live = await admin.get(nodeRef(n.name));
        assert.equal(annotations(live)["k8s.ovn.org/node-subnets"], JSON.stringify({ default: [n.subnet] }), n.name);
        assert.equal(annotations(live)["k8s.ovn.org/node-id"], String(n.nodeId));
        assert.equal(live.metadata.labels?.["k8s.ovn.org/zone-name"], n.name);
        assert.equal(annotations(live)["node.alpha.kubernetes.io/ttl"], "0", "the kubelet's annotation stays");
        assert.equal(live.metadata.labels?.["kubernetes.io/hostname"], n.name);
        const owned = (live.metadata.managedFields as Array<{ manager: string; fieldsV1: unknown }>).find((f) => f.manager === NODE_PLAN_APPLY.fieldManager);
        assert.deepEqual(owned?.fieldsV1, {
            "f:metadata": { "f:annotations": { "f:k8s.ovn.org/node-id": {}, "f:k8s.ovn.org/node-subnets": {} }, "f:labels": { "f:k8s.ovn.org/zone-name": {} } },
        });
    }

    // ovnkube writes node annotations through nodes/status, as its service account.
    const sa = KubeClient.fromCredentials({ server: cp.apiServerUrl, caPem: cp.caPem, token: await serviceAccountToken("ovnkube-node"), context: "ovnkube-node" });
    try {
        const worker = model.nodes.find((n) => n.name === "worker-0")!;
        await sa.patch(nodeRef(worker.name), { metadata: { annotations: { "k8s.ovn.org/node-id": "42" } } }, "merge", { subresource: "status", fieldManager: "ovnkube" });
        assert.equal(annotations(await admin.get(nodeRef(worker.name)))["k8s.ovn.org/node-id"], "42");

        const plan = kubeManifests(model).nodePlans.find((p) => p.metadata.name === worker.name)! as unknown as KubeObject;
        await assert.rejects(
            admin.apply(plan, { fieldManager: NODE_PLAN_APPLY.fieldManager }),
            (e: unknown) => e instanceof KubeApiError && e.statusCode === 409 && /conflict/i.test(e.message),
            "unforced, the apply stops on ovnkube's write",
        );
        await admin.apply(plan, NODE_PLAN_APPLY);
        assert.equal(annotations(await admin.get(nodeRef(worker.name)))["k8s.ovn.org/node-id"], String(worker.nodeId));

        // The Node itself is not ovnkube's to patch, its labels (the zone) included.
        await assert.rejects(
            sa.patch(nodeRef(worker.name), { metadata: { labels: { "k8s.ovn.org/zone-name": "elsewhere" } } }, "merge"),
            (e: unknown) => e instanceof KubeApiError && e.statusCode === 403,
        );
    } finally {
        sa.close();
    }
});

test("interconnect RBAC: the cluster manager's and the nodes' accounts make their ovnkube's calls and no others", async () => {
    // The cluster manager allocates for the nodes and leads; every node runs its zone's controller.
    await assertDecisions("ovnkube-cluster-manager", [...EVERY_ROLE, ...LEADER_ELECTION], [...NOBODY, ...CONTROLLER, ...ZONE_CONTROLLER]);
    await assertDecisions("ovnkube-node", [...EVERY_ROLE, ...CONTROLLER, ...ZONE_CONTROLLER], [...NOBODY, ...LEADER_ELECTION]);
    // The centralized master's account does not exist here.
    assert.equal(await accountMay("ovnkube-master", ["get", "nodes"]), false);
});

test("ovnkube -init-cluster-manager, with the DaemonSet's command line and its account, holds the Lease and keeps the plan", async () => {
    // The pod's service-account files, as the kubelet projects them; ovnkube finds them through
    // the environment here, since the process runs outside a pod (no mount at the in-pod path).
    fs.writeFileSync(path.join(work, "token"), await serviceAccountToken("ovnkube-cluster-manager"), { mode: 0o600 });
    fs.writeFileSync(path.join(work, "ca.crt"), cp.caPem);
    const log = path.join(work, "ovnkube-cluster-manager.log");

    const c: Container = kubeManifests(model).controlPlane.spec.template.spec.containers[0];
    assert.equal(c.name, "ovnkube-cluster-manager");
    const argv = expandedCommand(c, model.config, { node: "master-0", hostIP: "" }).map((arg) => (arg === CLUSTER_MANAGER_LOG ? log : arg));
    assert.ok(!argv.some((a) => a.includes("$(")), argv.join(" "));
    argv[0] = await labBinary("ovnkube", ovnKubernetesLabRelease("1.3"));
    const stdout = path.join(work, "ovnkube-cluster-manager.stdout");
    const ovnkube = startInNetns(cp.netns, ["env", `K8S_TOKEN_FILE=${path.join(work, "token")}`, `K8S_CACERT=${path.join(work, "ca.crt")}`, ...argv], stdout);
    helperPids.push(ovnkube);
    const exited = () => (isLiveProcess(ovnkube) ? undefined : `ovnkube exited:\n${logTail(log)}\n${logTail(stdout)}`);

    const lease = await pollUntil(
        async () => {
            const l = await admin.tryGet({ apiVersion: "coordination.k8s.io/v1", kind: "Lease", namespace: NAMESPACE, name: LEASE });
            return (l?.spec as { holderIdentity?: string } | undefined)?.holderIdentity === "master-0" ? l : undefined;
        },
        { timeoutMs: 60_000, intervalMs: 200, what: "the cluster manager to hold its Lease", giveUp: exited },
    );
    // The cluster manager's HA default, so the Lease is ovnkube's own and not a leftover.
    assert.equal((lease.spec as { leaseDurationSeconds: number }).leaseDurationSeconds, 137);
    // The election is recorded as an Event, created by the same account.
    await pollUntil(
        async () => (await admin.list("v1", "Event", { namespace: NAMESPACE })).find((e) => /master-0 became leader/.test((e as { message?: string }).message ?? "")),
        { timeoutMs: 30_000, what: "the cluster manager's LeaderElection event" },
    );

    // Leading, it allocates for every node: the planned node-id and subnet stay, and the transit
    // port gets the transit base plus the node-id, the address the model predicts.
    for (const n of model.nodes) {
        const a = await pollUntil(
            async () => {
                const got = annotations(await admin.get(nodeRef(n.name)));
                return got["k8s.ovn.org/node-transit-switch-port-ifaddr"] ? got : undefined;
            },
            { timeoutMs: 60_000, intervalMs: 500, what: `the cluster manager's transit address on ${n.name}`, giveUp: exited },
        );
        assert.deepEqual(JSON.parse(a["k8s.ovn.org/node-transit-switch-port-ifaddr"]), { ipv4: n.transit!.cidr }, n.name);
        assert.equal(a["k8s.ovn.org/node-id"], String(n.nodeId), n.name);
        assert.equal(a["k8s.ovn.org/node-subnets"], JSON.stringify({ default: [n.subnet] }), n.name);
    }
    assert.equal(exited(), undefined, "the cluster manager keeps running");
});

test("centralized RBAC: the master's account runs the network controller and leads, the nodes' only annotate their Nodes", async () => {
    await applyAll(centralized);
    await assertDecisions("ovnkube-master", [...EVERY_ROLE, ...CONTROLLER, ...LEADER_ELECTION], [...NOBODY, ...ZONE_CONTROLLER]);
    await assertDecisions("ovnkube-node", EVERY_ROLE, [...NOBODY, ...CONTROLLER, ...ZONE_CONTROLLER, ...LEADER_ELECTION]);
    // The Role is bound to the master's account now, and no longer to the cluster manager's.
    assert.equal(await accountMay("ovnkube-cluster-manager", LEADER_ELECTION[1]), false);
});
