// The ovnkube objects against a real Kubernetes API server (the lab's v1.36.2 with its controller
// manager and scheduler, Node,RBAC authorization) and the real ovnkube v1.3.0: the API server
// accepts the release's CRDs and every object as server-side apply sends it, the DaemonSet
// controller and the scheduler put the control plane on the masters and exactly one ovnkube-node
// pod of the right group on every node, the Node plan (with interconnect, the zone label too) lands
// as planned and is restored over ovnkube's own writes, RBAC lets each account make the calls its
// ovnkube makes and no others, in both architectures, and the interconnect cluster manager, with
// the DaemonSet's own command line and the cluster manager's account, wins its leader election
// through the Role's Lease and keeps the plan: the planned node-ids and subnets, and the transit
// addresses the model predicts. Node identities (on in the interconnect model): a node's
// certificate request, made with the kubelet's credentials, is approved by ovnkube-identity's
// account and signed, and the node then acts as its own user in the nodes' group; the API server
// takes ovnkube-identity's Secret (a real certificate) and both webhooks with its CA, created last
// and deleted at once (see the last test).
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { after, before, test } from "node:test";
import { buildKubeconfig, KubeApiError, KubeClient, pollUntil, type KubeObject } from "../../lab/kubeclient";
import type { ControlPlane } from "../../lab/localcluster/kube";
import { labBinary } from "../../lab/localcluster/kube/labBinaries";
import { logTail, startInNetns } from "../../lab/localcluster/kube/daemon";
import { ovnKubernetesLabRelease } from "../../lab/localcluster/labReleases";
import { isLiveProcess } from "../../lab/localcluster/namespaces";
import { loadCrds } from "../../components/kube/crds";
import { NODE_WEBHOOK, OVN_NODE_USER_PREFIX, OVN_NODES_GROUP, webhookConfigurations, webhookSecret } from "../../components/kube/identity";
import { issueWebhookCertificate } from "../../components/kube/webhookCertificate";
import { kubeManifests, manifestList } from "../../components/kube/manifests";
import { NODE_PLAN_APPLY } from "../../components/kube/nodeAnnotations";
import { CLUSTER_MANAGER_LOG } from "../../components/kube/ovnkubeArgs";
import type { Container, DaemonSet } from "../../components/kube/objectTypes";
import type { KubeModel } from "../../components/model/types";
import { SERVICE_SUBNET, startKubeLab, type KubeLab } from "../support/kubeControlPlane";
import { IDENTITY, interconnectModel, kubeModel } from "./fixture";
import { expandedCommand } from "./inspect";

const ID = "lkapi";
const APPLIER = "pulumi-kubernetes";
const NAMESPACE = "ovn-kubernetes";
const LEASE = "ovn-kubernetes-master";
const CERTIFICATES = "certificates.k8s.io";
const CLIENT_SIGNER = "kubernetes.io/kube-apiserver-client";

let lab: KubeLab;
let cp: ControlPlane;
let admin: KubeClient;
/** The interconnect cluster this file deploys; `centralized` is the same cluster's other architecture. */
let model: KubeModel;
let centralized: KubeModel;
/** Processes this file starts in the control plane's namespace (stop would end them too). */
const helperPids: number[] = [];
/** Clients this file opens besides admin; closed at the end. */
const clients: KubeClient[] = [];
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
            labels: {
                "kubernetes.io/hostname": name,
                "kubernetes.io/os": "linux",
                ...(master ? { "node-role.kubernetes.io/control-plane": "" } : {}),
            },
            annotations: { "node.alpha.kubernetes.io/ttl": "0" },
        },
        status: { capacity: resources, allocatable: resources },
    };
}

/** A token of a service account from the TokenRequest API, as the kubelet projects it into the pods. */
async function serviceAccountToken(account: string): Promise<string> {
    const answer = await admin.transport.request<{ status: { token: string } }>(
        "POST",
        `/api/v1/namespaces/${NAMESPACE}/serviceaccounts/${account}/token`,
        {
            body: { apiVersion: "authentication.k8s.io/v1", kind: "TokenRequest", spec: { expirationSeconds: 3600 } },
        },
    );
    return answer.status.token;
}

type Attrs = { group?: string; subresource?: string; namespace?: string; name?: string };
type Request = [verb: string, resource: string, attrs?: Attrs];
/** Who asks: a user with its groups, as the API server authenticates it. */
type Subject = { user: string; groups: string[] };

/** A service account of the namespace. */
const account = (name: string): Subject => ({
    user: `system:serviceaccount:${NAMESPACE}:${name}`,
    groups: ["system:serviceaccounts", `system:serviceaccounts:${NAMESPACE}`, "system:authenticated"],
});
/** A node's own certificate user, as its ovnkube authenticates with node identities. */
const ovnNode = (node: string): Subject => ({ user: `${OVN_NODE_USER_PREFIX}${node}`, groups: [OVN_NODES_GROUP, "system:authenticated"] });

/** The API server's own RBAC decision. */
async function may(who: Subject, [verb, resource, attrs = {}]: Request): Promise<boolean> {
    const review = await admin.create({
        apiVersion: "authorization.k8s.io/v1",
        kind: "SubjectAccessReview",
        metadata: {},
        spec: {
            user: who.user,
            groups: who.groups,
            resourceAttributes: {
                verb,
                resource,
                group: attrs.group ?? "",
                subresource: attrs.subresource,
                namespace: attrs.namespace,
                name: attrs.name,
            },
        },
    });
    return (review.status as { allowed: boolean }).allowed;
}

/** Asserts the API server's decision for every request, naming the user and the request. */
async function assertDecisions(who: Subject, allowed: Request[], denied: Request[]): Promise<void> {
    for (const r of allowed) assert.equal(await may(who, r), true, `${who.user} may ${r[0]} ${r[1]} ${JSON.stringify(r[2] ?? {})}`);
    for (const r of denied) assert.equal(await may(who, r), false, `${who.user} may not ${r[0]} ${r[1]} ${JSON.stringify(r[2] ?? {})}`);
}

/** A client of the API server with a service account's token. */
async function accountClient(name: string): Promise<KubeClient> {
    const client = KubeClient.fromCredentials({
        server: cp.apiServerUrl,
        caPem: cp.caPem,
        token: await serviceAccountToken(name),
        context: name,
    });
    clients.push(client);
    return client;
}

/** Each node's certificate request and the client with the certificate it got, made once. */
const nodeIdentities = new Map<string, Promise<{ csr: KubeObject; client: KubeClient }>>();

/**
 * ovnkube-node's certificate with node identities: a request for `system:ovn-node:<node>` in
 * `system:ovn-nodes` to the API server's client signer, made with the kubelet's credentials,
 * approved with ovnkube-identity's account (as its approver does), signed by the controller
 * manager; and a client that authenticates with it.
 */
function nodeIdentity(node: string): Promise<{ csr: KubeObject; client: KubeClient }> {
    const made = nodeIdentities.get(node) ?? requestNodeCertificate(node);
    nodeIdentities.set(node, made);
    return made;
}

async function requestNodeCertificate(node: string): Promise<{ csr: KubeObject; client: KubeClient }> {
    const user = `${OVN_NODE_USER_PREFIX}${node}`;
    const [keyFile, csrFile] = [path.join(work, `${node}.key`), path.join(work, `${node}.csr`)];
    execFileSync(
        "openssl",
        [
            "req",
            "-new",
            "-newkey",
            "ec",
            "-pkeyopt",
            "ec_paramgen_curve:prime256v1",
            "-nodes",
            "-keyout",
            keyFile,
            "-out",
            csrFile,
            "-subj",
            `/O=${OVN_NODES_GROUP}/CN=${user}`,
        ],
        { stdio: ["ignore", "ignore", "pipe"] },
    );
    const kubelet = KubeClient.fromKubeconfig((await cp.nodeCredentials(node)).kubeconfig);
    clients.push(kubelet);
    const name = `ovnkube-${node}`;
    await kubelet.create({
        apiVersion: "certificates.k8s.io/v1",
        kind: "CertificateSigningRequest",
        metadata: { name },
        spec: {
            request: fs.readFileSync(csrFile).toString("base64"),
            signerName: CLIENT_SIGNER,
            usages: ["digital signature", "client auth"],
            expirationSeconds: 3600,
        },
    });
    const ref = { apiVersion: "certificates.k8s.io/v1", kind: "CertificateSigningRequest", name };
    const approval = `/apis/certificates.k8s.io/v1/certificatesigningrequests/${name}/approval`;
    const approved = async (by: KubeClient) => {
        const csr = await admin.get(ref);
        const status = {
            conditions: [
                {
                    type: "Approved",
                    status: "True",
                    reason: "OvnkubeIdentity",
                    message: `${user} asked with its node's kubelet credentials`,
                },
            ],
        };
        return by.transport.request("PUT", approval, { body: { ...csr, status } });
    };
    // The nodes' account may not approve; ovnkube-identity's may.
    await assert.rejects(approved(await accountClient("ovnkube-node")), (e: unknown) => e instanceof KubeApiError && e.statusCode === 403);
    await approved(await accountClient("ovnkube-identity"));
    const signed = async () => {
        const got = await admin.get(ref);
        return (got.status as { certificate?: string }).certificate ? got : undefined;
    };
    const csr = await pollUntil(signed, { timeoutMs: 60_000, intervalMs: 250, what: `the controller manager to sign ${name}` });
    const certPem = Buffer.from((csr.status as { certificate: string }).certificate, "base64").toString();
    const client = KubeClient.fromKubeconfig(
        buildKubeconfig({
            server: cp.apiServerUrl,
            caPem: cp.caPem,
            user,
            credentials: { certPem, keyPem: fs.readFileSync(keyFile, "utf8") },
        }),
    );
    clients.push(client);
    return { csr, client };
}

/** Applies every object of `m` as the component does: the release's CRDs first, then the manifests in order. */
async function applyAll(m: KubeModel): Promise<void> {
    for (const crd of await loadCrds(m.crdUrls)) await admin.apply(crd as unknown as KubeObject, { fieldManager: APPLIER });
    for (const obj of manifestList(kubeManifests(m)))
        await admin.apply(obj as unknown as KubeObject, obj.kind === "Node" ? NODE_PLAN_APPLY : { fieldManager: APPLIER });
}

const READ = ["get", "list", "watch"];
const OVN = "k8s.ovn.org";
const STATUS_WRITES = ["patch", "update"];
/** Node annotations, written through the status. */
const NODE_STATUS: Request[] = STATUS_WRITES.map((v): Request => [v, "nodes", { subresource: "status" }]);
/** What every ovnkube reads and writes: its informers, Node annotations through status, events. */
const EVERY_ROLE: Request[] = [
    ...["pods", "nodes", "services", "namespaces"].flatMap((r) => READ.map((v): Request => [v, r])),
    ...READ.map((v): Request => [v, "endpointslices", { group: "discovery.k8s.io" }]),
    ...NODE_STATUS,
    ["create", "events", { namespace: "default" }],
];
/** The network controller's: network policies, pod and service annotations through status. */
const CONTROLLER: Request[] = [
    ...READ.map((v): Request => [v, "networkpolicies", { group: "networking.k8s.io" }]),
    ...["pods", "services"].flatMap((r) => STATUS_WRITES.map((v): Request => [v, r, { subresource: "status", namespace: "default" }])),
];
const ZONE_CONTROLLER: Request[] = STATUS_WRITES.map((v): Request => [v, "namespaces", { subresource: "status" }]);
/** A node renewing its own certificate, with node identities. */
const NODE_CERTIFICATE: Request[] = ["create", ...READ].map((v): Request => [v, "certificatesigningrequests", { group: CERTIFICATES }]);
/** Approving requests for the API server's client signer: ovnkube-identity's alone. */
const APPROVAL: Request[] = [
    ["update", "certificatesigningrequests", { group: CERTIFICATES, subresource: "approval" }],
    ["approve", "signers", { group: CERTIFICATES, name: CLIENT_SIGNER }],
];
/** ovnkube-identity's approver: it reads the requests and the Nodes they name, leads through its own Lease. */
const APPROVER: Request[] = [
    ...READ.map((v): Request => [v, "certificatesigningrequests", { group: CERTIFICATES }]),
    ...READ.map((v): Request => [v, "nodes"]),
    ["create", "events", { namespace: NAMESPACE }],
    ["create", "leases", { group: "coordination.k8s.io", namespace: NAMESPACE }],
    ...["get", "update"].map((v): Request => [
        v,
        "leases",
        { group: "coordination.k8s.io", namespace: NAMESPACE, name: "ovnkube-identity" },
    ]),
];
/** No one's with node identities: approving for another signer, signing, writing a request's status. */
const NOT_APPROVAL: Request[] = [
    ["approve", "signers", { group: CERTIFICATES, name: "kubernetes.io/kubelet-serving" }],
    ["approve", "signers", { group: CERTIFICATES, name: "kubernetes.io/kube-apiserver-client-kubelet" }],
    ["sign", "signers", { group: CERTIFICATES, name: CLIENT_SIGNER }],
    ["update", "certificatesigningrequests", { group: CERTIFICATES, subresource: "status" }],
];
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
    // The features' objects themselves, and the groups of features that are off or not offered.
    ["create", "egressips", { group: OVN }],
    ["delete", "egressfirewalls", { group: OVN, namespace: "default" }],
    ["patch", "egressfirewalls", { group: OVN, namespace: "default" }],
    ["list", "routeadvertisements", { group: OVN }],
    ["list", "userdefinednetworks", { group: OVN, namespace: "default" }],
    ["list", "adminnetworkpolicies", { group: "policy.networking.k8s.io" }],
    ["list", "network-attachment-definitions", { group: "k8s.cni.cncf.io", namespace: "default" }],
    ["list", "dnsnameresolvers", { group: "network.openshift.io", namespace: "default" }],
];

/**
 * The chart's features (on by default: egress IP, firewall, QoS, service, external gateways), as the
 * chart grants them (docs/facts/ovnkube-1.3.md §13). `read` lists what a part watches.
 */
const featureReads = (...resources: string[]): Request[] =>
    resources.flatMap((r) => READ.map((v): Request => [v, r, { group: OVN, namespace: "default" }]));
const featureWrites = (...resources: string[]): Request[] =>
    resources.flatMap((r) => {
        const [resource, subresource] = r.split("/");
        return STATUS_WRITES.map((v): Request => [v, resource, { group: OVN, namespace: "default", subresource }]);
    });
const STATUS_OF = ["egressfirewalls/status", "egressqoses/status", "adminpolicybasedexternalroutes/status"];
/** The network controller's: every feature's objects, and the status of those it reports on. */
const FEATURE_CONTROLLER: Request[] = [
    ...featureReads("egressips", "egressfirewalls", "egressqoses", "egressservices", "adminpolicybasedexternalroutes"),
    ...featureWrites(...STATUS_OF),
];
/** The cluster manager's: the same objects; it assigns egress IPs (the EgressIP itself) and egress service hosts, and merges the zones' status. */
const FEATURE_CLUSTER_MANAGER: Request[] = [...FEATURE_CONTROLLER, ...featureWrites("egressips", "egressservices/status")];
/** ovnkube-node's own: the objects of the features it is given. */
const FEATURE_NODE: Request[] = featureReads("egressips", "egressservices", "adminpolicybasedexternalroutes");

before(async () => {
    lab = await startKubeLab(ID);
    ({ controlPlane: cp, admin } = lab);
    const config = { k8s_apiserver: cp.apiServerUrl, svc_cidr: SERVICE_SUBNET };
    // The API server runs on no host here: it would call ovnkube-identity on the master's address.
    const identity = { ...IDENTITY, webhookAddress: lab.cluster.hosts[0].ip, listen: "node" as const };
    model = interconnectModel({ config: { ...interconnectModel().config, ...config }, identity });
    centralized = kubeModel({
        config: { ...kubeModel().config, ...config, OvnNorth: "tcp:127.0.0.1:6641", OvnSouth: "tcp:127.0.0.1:6642" },
    });
    for (const n of model.nodes) await admin.create(registeredNode(n.name, model.masterNodes.includes(n.name)));
});

after(async () => {
    for (const pid of helperPids) if (isLiveProcess(pid)) process.kill(pid, "SIGKILL");
    for (const c of clients) c.close();
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
    assert.ok(m.identity, "node identities are on");
    for (const ds of [m.controlPlane, ...m.nodes, m.identity.daemonSet]) {
        const live = (await admin.get({
            apiVersion: "apps/v1",
            kind: "DaemonSet",
            namespace: NAMESPACE,
            name: ds.metadata.name,
        })) as unknown as DaemonSet;
        assert.deepEqual(live.spec.template.spec.containers[0].args, ds.spec.template.spec.containers[0].args, ds.metadata.name);
        assert.equal(live.spec.template.spec.serviceAccountName, ds.spec.template.spec.serviceAccountName);
        assert.deepEqual(live.spec.template.spec.volumes, ds.spec.template.spec.volumes);
    }
    // ovnkube-identity's permissions as written: the approval for one signer, by name; the nodes' role bound to their group.
    const rbac = "rbac.authorization.k8s.io/v1";
    const clusterRole = await admin.get({ apiVersion: rbac, kind: "ClusterRole", name: m.identity.clusterRole.metadata.name });
    assert.deepEqual(clusterRole.rules, m.identity.clusterRole.rules);
    for (const binding of [m.identity.clusterRoleBinding, m.roles.node.clusterRoleBinding]) {
        assert.deepEqual(
            (await admin.get({ apiVersion: rbac, kind: "ClusterRoleBinding", name: binding.metadata.name })).subjects,
            binding.subjects,
            binding.metadata.name,
        );
    }
    assert.deepEqual(
        (await admin.get({ apiVersion: rbac, kind: "RoleBinding", namespace: NAMESPACE, name: m.identity.roleBinding.metadata.name }))
            .subjects,
        m.identity.roleBinding.subjects,
    );
});

test("the DaemonSet controller and the scheduler put one ovnkube-node of the right group on every node, ovnkube-control-plane on the masters", async () => {
    const expected = new Map<string, string[]>([
        ["ovnkube-control-plane", ["master-0", "master-1"]],
        ["ovnkube-identity", ["master-0", "master-1"]],
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
    const nodePods = [...placed]
        .filter(([ds]) => !["ovnkube-control-plane", "ovnkube-identity"].includes(ds))
        .flatMap(([, nodes]) => nodes);
    assert.equal(new Set(nodePods).size, model.nodes.length, "one ovnkube-node per node");
});

test("a node's certificate: requested with the kubelet's credentials, approved by ovnkube-identity's account alone, signed; it authenticates as system:ovn-node:<node> in system:ovn-nodes", async () => {
    const { csr, client } = await nodeIdentity("worker-0");
    assert.equal((csr.spec as { username: string }).username, "system:node:worker-0", "asked with the kubelet's credentials");
    assert.equal((csr.spec as { signerName: string }).signerName, CLIENT_SIGNER);
    const conditions = (csr.status as { conditions: Array<{ type: string; reason: string }> }).conditions;
    assert.deepEqual(
        conditions.map((c) => [c.type, c.reason]),
        [["Approved", "OvnkubeIdentity"]],
    );
    const review = await client.create({ apiVersion: "authentication.k8s.io/v1", kind: "SelfSubjectReview", metadata: {} });
    const who = (review.status as { userInfo: { username: string; groups: string[] } }).userInfo;
    assert.equal(who.username, "system:ovn-node:worker-0");
    assert.deepEqual(
        who.groups.filter((g) => g !== "system:authenticated"),
        ["system:ovn-nodes"],
    );
});

test("the Node plan, its zone and its node group label land beside the kubelet's and are restored over ovnkube's own write", async () => {
    for (const n of model.nodes) {
        const live = await admin.get(nodeRef(n.name));
        assert.equal(annotations(live)["k8s.ovn.org/node-subnets"], JSON.stringify({ default: [n.subnets[0]] }), n.name);
        assert.equal(annotations(live)["k8s.ovn.org/node-id"], String(n.nodeId));
        assert.equal(annotations(live)["k8s.ovn.org/node-transit-switch-port-ifaddr"], JSON.stringify({ ipv4: n.transit![0].cidr }));
        assert.equal(live.metadata.labels?.["k8s.ovn.org/zone-name"], n.name);
        assert.equal(
            live.metadata.labels?.["ovn-kubernetes-as-code/ovnkube-node-group"],
            model.nodeGroups.find((g) => g.nodes.includes(n.name))!.name,
        );
        assert.equal(annotations(live)["node.alpha.kubernetes.io/ttl"], "0", "the kubelet's annotation stays");
        assert.equal(live.metadata.labels?.["kubernetes.io/hostname"], n.name);
        const owned = (live.metadata.managedFields as Array<{ manager: string; fieldsV1: unknown }>).find(
            (f) => f.manager === NODE_PLAN_APPLY.fieldManager,
        );
        assert.deepEqual(owned?.fieldsV1, {
            "f:metadata": {
                "f:annotations": {
                    "f:k8s.ovn.org/node-id": {},
                    "f:k8s.ovn.org/node-subnets": {},
                    "f:k8s.ovn.org/node-transit-switch-port-ifaddr": {},
                },
                "f:labels": { "f:k8s.ovn.org/zone-name": {}, "f:ovn-kubernetes-as-code/ovnkube-node-group": {} },
            },
        });
    }

    // ovnkube writes node annotations through nodes/status, as its node's own user.
    const node = (await nodeIdentity("worker-0")).client;
    const worker = model.nodes.find((n) => n.name === "worker-0")!;
    await node.patch(nodeRef(worker.name), { metadata: { annotations: { "k8s.ovn.org/node-id": "42" } } }, "merge", {
        subresource: "status",
        fieldManager: "ovnkube",
    });
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
        node.patch(nodeRef(worker.name), { metadata: { labels: { "k8s.ovn.org/zone-name": "elsewhere" } } }, "merge"),
        (e: unknown) => e instanceof KubeApiError && e.statusCode === 403,
    );
});

test("interconnect RBAC with node identities: the cluster manager's account, every node's own user and ovnkube-identity's account make their calls and no others", async () => {
    // The cluster manager allocates for the nodes and leads.
    await assertDecisions(
        account("ovnkube-cluster-manager"),
        [...EVERY_ROLE, ...LEADER_ELECTION, ...FEATURE_CLUSTER_MANAGER],
        [...NOBODY, ...CONTROLLER, ...ZONE_CONTROLLER, ...APPROVAL],
    );
    // Every node runs its zone's controller as its certificate's user, in the nodes' group, and renews that certificate.
    await assertDecisions(
        ovnNode("node1"),
        [...EVERY_ROLE, ...CONTROLLER, ...ZONE_CONTROLLER, ...NODE_CERTIFICATE, ...FEATURE_CONTROLLER, ...FEATURE_NODE],
        [...NOBODY, ...LEADER_ELECTION, ...APPROVAL, ...NOT_APPROVAL, ...featureWrites("egressips", "egressservices/status")],
    );
    // The nodes' account holds nothing any more.
    await assertDecisions(account("ovnkube-node"), [], [...EVERY_ROLE, ...CONTROLLER, ...NODE_CERTIFICATE, ...APPROVAL]);
    // ovnkube-identity approves for the API server's client signer only.
    await assertDecisions(
        account("ovnkube-identity"),
        [...APPROVAL, ...APPROVER],
        [
            ...NOBODY,
            ...NOT_APPROVAL,
            ...LEADER_ELECTION.filter(([verb]) => verb !== "create"),
            ...NODE_STATUS,
            ["create", "certificatesigningrequests", { group: CERTIFICATES }],
        ],
    );
    // The centralized master's account does not exist here.
    assert.equal(await may(account("ovnkube-master"), ["get", "nodes"]), false);
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
    const ovnkube = startInNetns(
        cp.netns,
        ["env", `K8S_TOKEN_FILE=${path.join(work, "token")}`, `K8S_CACERT=${path.join(work, "ca.crt")}`, ...argv],
        stdout,
    );
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
        async () =>
            (await admin.list("v1", "Event", { namespace: NAMESPACE })).find((e) =>
                /master-0 became leader/.test((e as { message?: string }).message ?? ""),
            ),
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
        assert.deepEqual(JSON.parse(a["k8s.ovn.org/node-transit-switch-port-ifaddr"]), { ipv4: n.transit![0].cidr }, n.name);
        assert.equal(a["k8s.ovn.org/node-id"], String(n.nodeId), n.name);
        assert.equal(a["k8s.ovn.org/node-subnets"], JSON.stringify({ default: [n.subnets[0]] }), n.name);
    }
    assert.equal(exited(), undefined, "the cluster manager keeps running");
    // With the chart's features on it watches their objects too: the API server refused none of its calls.
    assert.doesNotMatch(fs.readFileSync(log, "utf8"), /forbidden/i);
    assert.match(argv.join(" "), /-enable-egress-ip .*-enable-egress-firewall/);
});

test("centralized RBAC: the master's account runs the network controller and leads, the nodes' only annotate their Nodes", async () => {
    await applyAll(centralized);
    await assertDecisions(
        account("ovnkube-master"),
        [...EVERY_ROLE, ...CONTROLLER, ...LEADER_ELECTION, ...FEATURE_CLUSTER_MANAGER],
        [...NOBODY, ...ZONE_CONTROLLER],
    );
    // Without node identities the nodes' role is their account's again, and their group's no longer;
    // ovn-node is given neither the egress firewall nor egress QoS (ovnkube.sh), so it may not read them.
    await assertDecisions(
        account("ovnkube-node"),
        [...EVERY_ROLE, ...FEATURE_NODE],
        [
            ...NOBODY,
            ...CONTROLLER,
            ...ZONE_CONTROLLER,
            ...LEADER_ELECTION,
            ...NODE_CERTIFICATE,
            ...featureReads("egressfirewalls", "egressqoses"),
            ...featureWrites(...STATUS_OF),
        ],
    );
    await assertDecisions(ovnNode("node1"), [], EVERY_ROLE);
    // The Role is bound to the master's account now, and no longer to the cluster manager's.
    assert.equal(await may(account("ovnkube-cluster-manager"), LEADER_ELECTION[1]), false);
});

test("the API server takes ovnkube-identity's Secret with a real certificate and both webhooks with its CA; with no webhook answering, they stop node status updates", async () => {
    const address = model.identity!.webhookAddress;
    const pair = issueWebhookCertificate([address]);
    const secret = { ...webhookSecret(model), stringData: { "tls.crt": pair.certificate, "tls.key": pair.privateKey } };
    await admin.apply(secret as unknown as KubeObject, { fieldManager: APPLIER });
    const live = await admin.get({ apiVersion: "v1", kind: "Secret", namespace: NAMESPACE, name: secret.metadata.name });
    assert.equal(live.type, "kubernetes.io/tls");
    const data = live.data as Record<string, string>;
    assert.deepEqual(Object.keys(data).sort(), ["tls.crt", "tls.key"]);
    assert.equal(Buffer.from(data["tls.crt"], "base64").toString(), pair.certificate);
    assert.equal(Buffer.from(data["tls.key"], "base64").toString(), pair.privateKey);
    // The DaemonSet the API server holds mounts that Secret.
    const ds = (await admin.get({
        apiVersion: "apps/v1",
        kind: "DaemonSet",
        namespace: NAMESPACE,
        name: "ovnkube-identity",
    })) as unknown as DaemonSet;
    assert.ok(ds.spec.template.spec.volumes?.some((v) => "secret" in v && v.secret.secretName === secret.metadata.name));

    // The webhooks come last and go at once: failurePolicy Fail, and no ovnkube-identity answers
    // here, so while they exist the API server refuses every node status update (the controller
    // manager's, the nodes') and every pod status update. Nothing after this test runs on this API server.
    const caBundle = Buffer.from(pair.caCertificate).toString("base64");
    const webhooks = webhookConfigurations(model).map((w) => ({
        ...w,
        webhooks: w.webhooks.map((h) => ({ ...h, clientConfig: { ...h.clientConfig, caBundle } })),
    }));
    assert.equal(webhooks.length, 2, "node and pod webhooks with interconnect");
    const ref = (name: string) => ({ apiVersion: "admissionregistration.k8s.io/v1", kind: "ValidatingWebhookConfiguration", name });
    // Whoever writes it: the webhook is called for every node status update, the admin's too.
    const probe = () =>
        admin.patch(nodeRef("worker-0"), { metadata: { annotations: { "example.com/webhook-probe": String(Date.now()) } } }, "merge", {
            subresource: "status",
        });
    try {
        for (const w of webhooks) await admin.apply(w as unknown as KubeObject, { fieldManager: APPLIER });
        for (const w of webhooks) {
            const got = (await admin.get(ref(w.metadata.name))) as unknown as typeof w;
            const [hook] = got.webhooks;
            assert.deepEqual(
                hook.clientConfig,
                { url: `https://${address}:9443/${w.metadata.name === NODE_WEBHOOK ? "node" : "pod"}`, caBundle },
                w.metadata.name,
            );
            assert.equal(hook.failurePolicy, "Fail");
            assert.deepEqual(hook.rules, w.webhooks[0].rules);
            // The API server compiled the pod webhook's CEL condition, or it would have refused it.
            assert.deepEqual(hook.matchConditions, w.webhooks[0].matchConditions);
        }
        // In force as soon as the API server has loaded them: a node status update is refused.
        await pollUntil(
            async () => {
                const outcome = await probe().then(
                    () => new Error("the update passed"),
                    (e: Error) => e,
                );
                if (
                    outcome instanceof KubeApiError &&
                    /failed calling webhook "ovn-kubernetes-admission-webhook-node\.k8s\.io"/.test(outcome.message)
                )
                    return true;
                throw outcome;
            },
            { timeoutMs: 30_000, intervalMs: 250, what: "the node webhook to refuse a node status update while nothing answers" },
        );
    } finally {
        for (const w of webhooks) await admin.delete(ref(w.metadata.name));
    }
    for (const w of webhooks) assert.equal(await admin.tryGet(ref(w.metadata.name)), undefined, w.metadata.name);
    // Gone, the same update passes again.
    await pollUntil(
        async () =>
            probe().then(
                () => true,
                () => undefined,
            ),
        { timeoutMs: 30_000, intervalMs: 250, what: "node status updates to pass once the webhooks are gone" },
    );
});
