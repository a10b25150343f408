// The ovnkube objects against a real Kubernetes API server (the lab's v1.29.1 with its controller
// manager and scheduler, Node,RBAC authorization) and the real ovnkube v1.0.0: the API server
// accepts every object as server-side apply sends it, the DaemonSet controller and the scheduler
// put exactly one ovnkube-node pod of the right group on every node, the Node plan lands as
// planned and is restored over ovnkube's own writes, RBAC lets service account `ovn` make the
// calls ovnkube makes and no others, and `ovnkube -init-master` with the DaemonSet's own command
// line wins its leader election through the Role's Lease.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { after, before, test } from "node:test";
import { KubeApiError, KubeClient, pollUntil, type KubeObject } from "../../kubeclient";
import { down, up } from "../../localcluster";
import type { LocalCluster } from "../../localcluster";
import { labBinary, startControlPlane, type ControlPlane } from "../../localcluster/kube";
import { logTail, startInNetns } from "../../localcluster/kube/daemon";
import { isLiveProcess } from "../../localcluster/namespaces";
import { kubeManifests, manifestList } from "../../components/kube/manifests";
import { NODE_PLAN_APPLY } from "../../components/kube/node-annotations";
import { MASTER_LOG, SERVICE_ACCOUNT_DIR } from "../../components/kube/ovnkube-args";
import type { Container, DaemonSet } from "../../components/kube/types";
import type { KubeModel } from "../../components/model/types";
import { kubeModel } from "./fixture";
import { expandedCommand } from "./inspect";

const ID = "kubeapi";
const SERVICE_SUBNET = "172.30.0.0/16";
const APPLIER = "pulumi-kubernetes";
const SA_USER = "system:serviceaccount:ovn-kubernetes:ovn";
const SA_GROUPS = ["system:serviceaccounts", "system:serviceaccounts:ovn-kubernetes", "system:authenticated"];

let cluster: LocalCluster;
let cp: ControlPlane;
let admin: KubeClient;
let model: KubeModel;
/** Processes this file starts in the control plane's namespace (down would end them too). */
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

/** A token of service account `ovn` from the TokenRequest API, as the kubelet projects it into the pods. */
async function serviceAccountToken(): Promise<string> {
    const answer = await admin.transport.request<{ status: { token: string } }>("POST", `/api/v1/namespaces/${model.namespace}/serviceaccounts/ovn/token`, {
        body: { apiVersion: "authentication.k8s.io/v1", kind: "TokenRequest", spec: { expirationSeconds: 3600 } },
    });
    return answer.status.token;
}

/** The API server's own RBAC decision for service account `ovn`. */
async function ovnMay(verb: string, resource: string, attrs: { group?: string; subresource?: string; namespace?: string; name?: string } = {}): Promise<boolean> {
    const review = await admin.create({
        apiVersion: "authorization.k8s.io/v1",
        kind: "SubjectAccessReview",
        metadata: {},
        spec: { user: SA_USER, groups: SA_GROUPS, resourceAttributes: { verb, resource, group: attrs.group ?? "", subresource: attrs.subresource, namespace: attrs.namespace, name: attrs.name } },
    });
    return (review.status as { allowed: boolean }).allowed;
}

/** The DaemonSet's command line for a pod on `node`, with the pod's paths moved to `dir`: the service-account files and the log file. */
function commandLine(c: Container, node: string, dir: string): string[] {
    return expandedCommand(c, model.config, { node, hostIP: "" }).map((arg) =>
        arg.startsWith(`${SERVICE_ACCOUNT_DIR}/`) ? path.join(dir, path.basename(arg)) : arg === MASTER_LOG ? path.join(dir, "ovnkube-master.log") : arg,
    );
}

before(async () => {
    await down(ID); // whatever an aborted earlier run left
    const t0 = Date.now();
    cluster = await up({ id: ID, hosts: 1 });
    cp = await startControlPlane(cluster, { serviceSubnet: SERVICE_SUBNET, log: () => undefined });
    console.log(`# local cluster and control plane ready in ${Date.now() - t0} ms`);
    admin = KubeClient.fromKubeconfig(cp.adminKubeconfig.content);
    const base = kubeModel();
    model = kubeModel({
        config: { ...base.config, k8s_apiserver: cp.apiServerUrl, svc_cidr: SERVICE_SUBNET, OvnNorth: "tcp:127.0.0.1:6641", OvnSouth: "tcp:127.0.0.1:6642" },
    });
    for (const n of model.nodes) await admin.create(registeredNode(n.name, model.masterNodes.includes(n.name)));
});

after(async () => {
    for (const pid of helperPids) if (isLiveProcess(pid)) process.kill(pid, "SIGKILL");
    admin?.close();
    await down(ID);
    fs.rmSync(work, { recursive: true, force: true });
});

test("the API server accepts every object as server-side apply sends it, the Nodes' plan first", async () => {
    const m = kubeManifests(model);
    for (const obj of manifestList(m)) {
        const opts = obj.kind === "Node" ? NODE_PLAN_APPLY : { fieldManager: APPLIER };
        await admin.apply(obj as unknown as KubeObject, opts);
    }
    for (const ds of [m.master, ...m.nodes]) {
        const live = (await admin.get({ apiVersion: "apps/v1", kind: "DaemonSet", namespace: model.namespace, name: ds.metadata.name })) as unknown as DaemonSet;
        assert.deepEqual(live.spec.template.spec.containers[0].args, ds.spec.template.spec.containers[0].args, ds.metadata.name);
        assert.deepEqual(live.spec.template.spec.volumes, ds.spec.template.spec.volumes);
    }
});

test("the DaemonSet controller and the scheduler put one ovnkube-node of the right group on every node, ovnkube-master on the masters", async () => {
    const expected = new Map<string, string[]>([
        ["ovnkube-master", ["master-0", "master-1"]],
        ...model.nodeGroups.map((g): [string, string[]] => [g.name, [...g.nodes].sort()]),
    ]);
    const placed = await pollUntil(
        async () => {
            const pods = await admin.list("v1", "Pod", { namespace: model.namespace });
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
    const nodePods = [...placed].filter(([ds]) => ds !== "ovnkube-master").flatMap(([, nodes]) => nodes);
    assert.equal(new Set(nodePods).size, model.nodes.length, "one ovnkube-node per node");
});

test("the Node plan lands beside the kubelet's annotations and is restored over ovnkube's own write", async () => {
    for (const n of model.nodes) {
        const live = await admin.get(nodeRef(n.name));
        assert.equal(annotations(live)["k8s.ovn.org/node-subnets"], JSON.stringify({ default: [n.subnet] }), n.name);
        assert.equal(annotations(live)["k8s.ovn.org/node-id"], String(n.nodeId));
        assert.equal(annotations(live)["node.alpha.kubernetes.io/ttl"], "0", "the kubelet's annotation stays");
        assert.equal(live.metadata.labels?.["kubernetes.io/hostname"], n.name);
        const owned = (live.metadata.managedFields as Array<{ manager: string; fieldsV1: unknown }>).find((f) => f.manager === NODE_PLAN_APPLY.fieldManager);
        assert.deepEqual(owned?.fieldsV1, { "f:metadata": { "f:annotations": { "f:k8s.ovn.org/node-id": {}, "f:k8s.ovn.org/node-subnets": {} } } });
    }

    // ovnkube writes node annotations through nodes/status, as service account ovn.
    const sa = KubeClient.fromCredentials({ server: cp.apiServerUrl, caPem: cp.caPem, token: await serviceAccountToken(), context: "ovn" });
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

        // The Node itself is not ovnkube's to patch.
        await assert.rejects(
            sa.patch(nodeRef(worker.name), { metadata: { labels: { x: "y" } } }, "merge"),
            (e: unknown) => e instanceof KubeApiError && e.statusCode === 403,
        );
    } finally {
        sa.close();
    }
});

test("RBAC lets service account ovn make ovnkube's calls and no others", async () => {
    const allowed: Array<[string, string, Parameters<typeof ovnMay>[2]?]> = [
        ...["pods", "nodes", "services", "namespaces"].flatMap((r) => ["get", "list", "watch"].map((v): [string, string] => [v, r])),
        ...["get", "list", "watch"].map((v): [string, string, Parameters<typeof ovnMay>[2]] => [v, "endpointslices", { group: "discovery.k8s.io" }]),
        ...["get", "list", "watch"].map((v): [string, string, Parameters<typeof ovnMay>[2]] => [v, "networkpolicies", { group: "networking.k8s.io" }]),
        ...["nodes", "pods", "services"].flatMap((r) => ["patch", "update"].map((v): [string, string, Parameters<typeof ovnMay>[2]] => [v, r, { subresource: "status", namespace: r === "nodes" ? undefined : "default" }])),
        ["create", "events", { namespace: "default" }],
        ["create", "leases", { group: "coordination.k8s.io", namespace: "ovn-kubernetes" }],
        ["get", "leases", { group: "coordination.k8s.io", namespace: "ovn-kubernetes", name: "ovn-kubernetes-master" }],
        ["update", "leases", { group: "coordination.k8s.io", namespace: "ovn-kubernetes", name: "ovn-kubernetes-master" }],
    ];
    const denied: Array<[string, string, Parameters<typeof ovnMay>[2]?]> = [
        ["patch", "nodes"],
        ["patch", "pods", { namespace: "default" }],
        ["delete", "nodes"],
        ["create", "pods", { namespace: "default" }],
        ["get", "secrets", { namespace: "ovn-kubernetes" }],
        ["get", "configmaps", { namespace: "ovn-kubernetes", name: "ovn-config" }],
        ["list", "endpoints", { namespace: "default" }],
        ["update", "leases", { group: "coordination.k8s.io", namespace: "ovn-kubernetes", name: "someone-elses-lock" }],
        ["create", "leases", { group: "coordination.k8s.io", namespace: "kube-system" }],
        ["list", "egressips", { group: "k8s.ovn.org" }],
    ];
    for (const [verb, resource, attrs] of allowed) assert.equal(await ovnMay(verb, resource, attrs), true, `${verb} ${resource} ${JSON.stringify(attrs ?? {})}`);
    for (const [verb, resource, attrs] of denied) assert.equal(await ovnMay(verb, resource, attrs), false, `${verb} ${resource} ${JSON.stringify(attrs ?? {})}`);
});

test("ovnkube -init-master, with the DaemonSet's command line, holds the Lease ovn-kubernetes-master as service account ovn", async () => {
    // The pod's service-account files, as the kubelet projects them.
    fs.writeFileSync(path.join(work, "token"), await serviceAccountToken(), { mode: 0o600 });
    fs.writeFileSync(path.join(work, "ca.crt"), cp.caPem);
    // A Northbound address that accepts connections and never answers: once leading, the master
    // waits there (20 s, v1.0.0's NB connect timeout) instead of failing at once and giving the
    // Lease back.
    const silentNb = startInNetns(cp.netns, [process.execPath, "-e", `require("net").createServer(() => {}).listen(6641, "127.0.0.1")`], path.join(work, "nb.log"));
    helperPids.push(silentNb);
    await pollUntil(async () => (execFileSync("ip", ["netns", "exec", cp.netns, "ss", "-Hltn", "sport = :6641"], { encoding: "utf8" }).trim() ? true : undefined), {
        timeoutMs: 10_000,
        what: "the silent NB listener",
    });

    const master = kubeManifests(model).master.spec.template.spec.containers[0];
    const argv = commandLine(master, "master-0", work);
    assert.ok(!argv.some((a) => a.includes("$(")), argv.join(" "));
    argv[0] = await labBinary("ovnkube");
    const stdout = path.join(work, "ovnkube-master.stdout");
    const ovnkube = startInNetns(cp.netns, argv, stdout);
    helperPids.push(ovnkube);

    const lease = await pollUntil(
        async () => {
            const l = await admin.tryGet({ apiVersion: "coordination.k8s.io/v1", kind: "Lease", namespace: model.namespace, name: "ovn-kubernetes-master" });
            return (l?.spec as { holderIdentity?: string } | undefined)?.holderIdentity === "master-0" ? l : undefined;
        },
        {
            timeoutMs: 30_000,
            intervalMs: 200,
            what: "ovnkube-master to hold its Lease",
            giveUp: () => (isLiveProcess(ovnkube) ? undefined : `ovnkube exited:\n${logTail(path.join(work, "ovnkube-master.log"))}\n${logTail(stdout)}`),
        },
    );
    // v1.0.0's master HA default, so the Lease is ovnkube's own and not a leftover.
    assert.equal((lease.spec as { leaseDurationSeconds: number }).leaseDurationSeconds, 137);
    // The election is recorded as an Event, created by the same account.
    await pollUntil(
        async () => (await admin.list("v1", "Event", { namespace: model.namespace })).find((e) => /master-0 became leader/.test((e as { message?: string }).message ?? "")),
        { timeoutMs: 30_000, what: "ovnkube-master's LeaderElection event" },
    );
});
