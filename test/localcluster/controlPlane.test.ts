// The local cluster's Kubernetes control plane, for real: etcd and the lab's v1.36.2 API server,
// controller manager and scheduler in their own namespace on the underlay. Proves the version,
// that kubelet credentials are held to their own Node (Node authorizer and NodeRestriction in
// force), that the controller manager runs (default ServiceAccount), that hosts reach the API
// server, and that the cluster's `down` ends every process of it.
import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { after, before, test } from "node:test";
import { execFileSync } from "node:child_process";
import { KubeApiError, KubeClient, pollUntil, type KubeObject } from "../../lab/kubeclient";
import { down, hostExec } from "../../lab/localcluster";
import type { LocalCluster } from "../../lab/localcluster";
import {
    KUBERNETES_VERSION,
    labBinary,
    loadControlPlane,
    LAB_BIN_ENV,
    LAB_CACHE_ENV,
    type ControlPlane,
} from "../../lab/localcluster/kube";
import { labCrdDir, labSourceDir, LAB_CRDS_ENV, ovnKubernetesLabRelease } from "../../lab/localcluster/labReleases";
import { startKubeLab, type KubeLab } from "../support/kubeControlPlane";
import { leftovers, processesIn, stillRunning } from "./leftovers";

const ID = "lckube";
let lab: KubeLab;
let cluster: LocalCluster;
let cp: ControlPlane;
let admin: KubeClient;

before(async () => {
    lab = await startKubeLab(ID);
    ({ cluster, controlPlane: cp, admin } = lab);
});

after(async () => {
    await lab?.stop();
});

test("the API server is the lab's v1.36.2, served on the control plane's underlay address", async () => {
    const version = await admin.getPath<{ gitVersion: string }>("/version");
    assert.equal(version.gitVersion, "v1.36.2");
    assert.equal(version.gitVersion, KUBERNETES_VERSION);
    assert.equal(cp.apiServerUrl, `https://${cp.address}:6443`);
    assert.ok(cp.address.startsWith(cluster.subnet.split(".").slice(0, 3).join(".") + "."));
    assert.ok(!cluster.hosts.some((h) => h.ip === cp.address) && cp.address !== cluster.external.ip && cp.address !== cluster.operatorIp);
    // The admin kubeconfig holds a private key.
    assert.equal(fs.statSync(cp.adminKubeconfig.path).mode & 0o777, 0o600);
    assert.equal(cp.adminKubeconfig.path, path.join(cluster.dir, "k8s", "admin.kubeconfig"));
    // Later commands find the running control plane from its state.
    const loaded = loadControlPlane(cluster);
    assert.deepEqual([loaded.apiServerUrl, loaded.pids, loaded.caPem], [cp.apiServerUrl, cp.pids, cp.caPem]);
});

test("a namespace held by a finalizer: the bounded wait for its deletion says what holds it", async () => {
    const ns = { apiVersion: "v1", kind: "Namespace", name: "held" };
    await admin.create({ apiVersion: "v1", kind: "Namespace", metadata: { name: "held", finalizers: ["example.com/hold"] } });
    assert.equal(await admin.delete(ns), true);
    await assert.rejects(
        admin.waitUntilGone(ns, 1500),
        /timed out after 1500 ms waiting for Namespace held to be deleted.*; it is terminating since .*finalizers example\.com\/hold/,
    );
    await admin.patch(ns, { metadata: { finalizers: null } }, "merge");
    await admin.waitUntilGone(ns, 30_000);
});

test("a host reaches the API server over the underlay", async () => {
    const r = await hostExec(cluster, "node1", ["bash", "-c", 'exec 3<>"/dev/tcp/$0/6443" && echo connected', cp.address]);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout.trim(), "connected");
});

test("the controller manager made the default ServiceAccount", async () => {
    const sa = await admin.get({ apiVersion: "v1", kind: "ServiceAccount", namespace: "default", name: "default" });
    assert.equal(sa.metadata.name, "default");
    assert.ok(sa.metadata.uid);
});

test("a kubelet's credentials register its own Node and are refused for another node's", async () => {
    const node1 = await cp.nodeCredentials("node1");
    assert.equal(node1.user, "system:node:node1");
    assert.equal(fs.statSync(node1.kubeconfigPath).mode & 0o777, 0o600);
    const kubelet = KubeClient.fromKubeconfig(node1.kubeconfig);
    try {
        const created = await kubelet.create({
            apiVersion: "v1",
            kind: "Node",
            metadata: { name: "node1", labels: { "kubernetes.io/hostname": "node1" } },
        });
        assert.equal(created.metadata.name, "node1");
        const taintKeys = (node: KubeObject) => ((node.spec as { taints?: Array<{ key: string }> }).taints ?? []).map((t) => t.key);
        // As for a kubelet registering: not ready until it reports so.
        assert.ok(taintKeys(created).includes("node.kubernetes.io/not-ready"), `taints at registration: ${taintKeys(created).join(", ")}`);
        const seen = await admin.get({ apiVersion: "v1", kind: "Node", name: "node1" });
        assert.equal(seen.metadata.uid, created.metadata.uid);

        await assert.rejects(
            kubelet.create({ apiVersion: "v1", kind: "Node", metadata: { name: "node9" } }),
            (e: unknown) =>
                e instanceof KubeApiError && e.statusCode === 403 && /node "node1" is not allowed to modify node "node9"/.test(e.message),
        );
        assert.equal(await admin.tryGet({ apiVersion: "v1", kind: "Node", name: "node9" }), undefined);
        // Node lifecycle runs: once the kubelet reports Ready, the not-ready taint set at registration goes.
        const now = new Date().toISOString();
        await kubelet.patch(
            { apiVersion: "v1", kind: "Node", name: "node1" },
            {
                status: {
                    conditions: [
                        {
                            type: "Ready",
                            status: "True",
                            reason: "KubeletReady",
                            message: "ready",
                            lastHeartbeatTime: now,
                            lastTransitionTime: now,
                        },
                    ],
                },
            },
            "strategic",
            { subresource: "status" },
        );
        await pollUntil(
            async () => {
                const taints = taintKeys(await admin.get({ apiVersion: "v1", kind: "Node", name: "node1" }));
                return taints.includes("node.kubernetes.io/not-ready") ? undefined : taints;
            },
            { timeoutMs: 30_000, what: "kube-controller-manager to lift node1's not-ready taint" },
        );

        // RBAC too: a kubelet may not create namespaces.
        await assert.rejects(
            kubelet.create({ apiVersion: "v1", kind: "Namespace", metadata: { name: "kubelet-made" } }),
            (e: unknown) => e instanceof KubeApiError && e.statusCode === 403,
        );
    } finally {
        kubelet.close();
    }
});

test("a missing or damaged lab binary is named, with how to obtain the binaries", async () => {
    const saved = { bin: process.env[LAB_BIN_ENV], cache: process.env[LAB_CACHE_ENV] };
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "lab-bin-"));
    try {
        // With the override, each release is read from its directory below it.
        process.env[LAB_BIN_ENV] = path.join(dir, "bin");
        process.env[LAB_CACHE_ENV] = path.join(dir, "cache");
        const k8s = path.join(dir, "bin", "k8s-v1.36.2");
        fs.mkdirSync(k8s, { recursive: true });
        await assert.rejects(
            labBinary("kube-apiserver"),
            new RegExp(`missing ${k8s}/SHA256SUMS: .*Kubernetes v1\\.36\\.2's release.*${LAB_BIN_ENV}`),
        );
        assert.equal(labSourceDir(ovnKubernetesLabRelease("1.3")), path.join(dir, "bin", "ovn-kubernetes-v1.3.0"));

        fs.writeFileSync(path.join(k8s, "SHA256SUMS"), `${"0".repeat(64)}  kube-apiserver\n`);
        await assert.rejects(labBinary("kube-apiserver"), new RegExp(`missing ${k8s}/kube-apiserver.xz: `));

        fs.writeFileSync(path.join(k8s, "kube-apiserver"), "not the real thing\n");
        execFileSync("xz", [path.join(k8s, "kube-apiserver")]);
        await assert.rejects(
            labBinary("kube-apiserver"),
            /unpacks to SHA-256 [0-9a-f]{64}, but .*SHA256SUMS says 0{64}: the file is damaged/,
        );
        // Nothing unverified is left in the cache.
        assert.deepEqual(fs.readdirSync(path.join(dir, "cache", "0".repeat(64))), []);
    } finally {
        for (const [k, v] of [
            [LAB_BIN_ENV, saved.bin],
            [LAB_CACHE_ENV, saved.cache],
        ] as const) {
            if (v === undefined) delete process.env[k];
            else process.env[k] = v;
        }
        fs.rmSync(dir, { recursive: true, force: true });
    }
});

test("each release is read from its own directory of ../shared/k8s-lab; the CRDs of 1.3 and 1.2 too", () => {
    const lab = path.resolve(__dirname, "../../../shared/k8s-lab");
    const saved = { bin: process.env[LAB_BIN_ENV], crds: process.env[LAB_CRDS_ENV] };
    delete process.env[LAB_BIN_ENV];
    delete process.env[LAB_CRDS_ENV];
    try {
        assert.equal(labSourceDir(ovnKubernetesLabRelease("1.3")), path.join(lab, "v1.36-v1.3/bin/ovn-kubernetes-v1.3.0"));
        assert.equal(labSourceDir(ovnKubernetesLabRelease("1.2")), path.join(lab, "v1.36-v1.3/bin/ovn-kubernetes-v1.2.0"));
        assert.equal(labCrdDir("1.3"), path.join(lab, "v1.36-v1.3/crds/v1.3.0"));
        assert.equal(labCrdDir("1.2"), path.join(lab, "v1.36-v1.3/crds/v1.2.0"));
        assert.ok(fs.readdirSync(labCrdDir("1.3")).includes("k8s.ovn.org_egressips.yaml"));
        assert.throws(() => labCrdDir("1.0" as never), /unknown ovn-kubernetes release "1\.0": use 1\.3, 1\.2/);
        process.env[LAB_CRDS_ENV] = "/elsewhere/crds";
        assert.equal(labCrdDir("1.3"), "/elsewhere/crds/v1.3.0");
    } finally {
        for (const [k, v] of [
            [LAB_BIN_ENV, saved.bin],
            [LAB_CRDS_ENV, saved.crds],
        ] as const) {
            if (v === undefined) delete process.env[k];
            else process.env[k] = v;
        }
    }
});

test("down ends every control plane process and removes its namespace, veth and files", async () => {
    const marks = processesIn([cp.netns]);
    const pids = Object.values(cp.pids);
    assert.deepEqual(
        marks
            .map((m) => m.pid)
            .filter((p) => pids.includes(p))
            .sort(),
        [...pids].sort(),
    );
    await down(ID);
    assert.deepEqual(stillRunning(marks), []);
    assert.deepEqual(leftovers(ID), { netns: [], links: [], mounts: [] });
    assert.equal(fs.existsSync(path.join(cluster.dir, "k8s")), false);
});
