// The offline apply against a real API server (the local cluster's control plane): the project's
// ovnkube objects, behind an explicit provider whose kubeconfig is a stack secret, are applied by
// server-side apply under the stack's field manager; a second up changes nothing even after the
// controllers wrote status; a by-hand edit of a declared ConfigMap value is drift for refresh and
// repaired by up; an object whose create the engine lost is taken over by the next up (the
// program's provider upserts; without it, refused as AlreadyExists); destroy deletes every object
// and waits until the namespace is gone.
import assert from "node:assert/strict";
import * as fs from "node:fs";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { after, before, test } from "node:test";
import YAML from "yaml";
import { KubeClient, pollUntil, type KubeObject, type ObjectRef } from "../../lab/kubeclient";
import { PassphraseSecrets } from "../../lab/offline/passphraseSecrets";
import { apply, destroy, refresh, type OfflineOptions, type OperationResult } from "../../lab/offline/api";
import { startKubeLab, type KubeLab } from "../support/kubeControlPlane";
import { kubernetesApi } from "../../lab/offline/handlers/kubernetesApi";
import type { HandlerContext } from "../../lab/offline/handlers/types";
import type { Props } from "../../lab/offline/values";

const ID = "offkube";
const FIXTURE_DIR = path.join(__dirname, "kubeFixture");
const PROJECT = "offline-kube-fixture";
const STACK = "kubeapi";
const FIELD_MANAGER = `pulumi-kubernetes-${PROJECT}-${STACK}`;
const PASSPHRASE = "offline kubernetes test passphrase";

let lab: KubeLab;
let admin: KubeClient;
let adminKeyPem: string;
let work: string;
let options: OfflineOptions;

before(async () => {
    lab = await startKubeLab(ID);
    const { cluster, controlPlane: cp } = lab;
    admin = lab.admin;
    adminKeyPem = fs.readFileSync(path.join(cluster.dir, "k8s", "pki", "admin.key"), "utf8");

    work = mkdtempSync(path.join(tmpdir(), "offline-kube-"));
    const secrets = PassphraseSecrets.create(PASSPHRASE);
    const stackFile = path.join(work, `Pulumi.${STACK}.yaml`);
    fs.writeFileSync(
        stackFile,
        YAML.stringify({
            encryptionsalt: secrets.encryptionSalt,
            config: { [`${PROJECT}:kubeconfig`]: { secure: secrets.encrypt(cp.adminKubeconfig.content) } },
        }),
    );
    options = { stack: STACK, projectDir: FIXTURE_DIR, stackFile, localDir: work, passphrase: PASSPHRASE };
});

after(async () => {
    await lab?.stop();
    if (work) fs.rmSync(work, { recursive: true, force: true });
});

interface StateEntry {
    type: string;
    name: string;
    inputs: Record<string, unknown>;
    outputs: Record<string, unknown>;
}

const kubeResources = (r: OperationResult): StateEntry[] =>
    (JSON.parse(fs.readFileSync(r.statePath, "utf8")).resources as StateEntry[]).filter((e) => e.type.startsWith("kubernetes:"));

/** The object a state entry declares (its inputs are in the clear: no secret in these objects). */
function refOf(e: StateEntry): ObjectRef {
    const o = e.inputs as { apiVersion: string; kind: string; metadata: { name: string; namespace?: string } };
    return { apiVersion: o.apiVersion, kind: o.kind, name: o.metadata.name, namespace: o.metadata.namespace };
}

const configMapRef = { apiVersion: "v1", kind: "ConfigMap", name: "ovn-config", namespace: "ovn-kubernetes" };
const changed = (r: OperationResult) => r.ops.filter((o) => o.op !== "same");
const annotationsOf = (o: { metadata?: unknown }) => ((o.metadata ?? {}) as { annotations?: Record<string, string> }).annotations ?? {};
/** A patch (NodePatch, …) may name its own field manager, as with pulumi-kubernetes; everything else uses the stack's. */
const managerOf = (e: StateEntry) => annotationsOf(e.inputs)["pulumi.com/patchFieldManager"] ?? FIELD_MANAGER;
const isPatch = (e: StateEntry) => e.type.endsWith("Patch");
const managers = (o: KubeObject) => (o.metadata.managedFields ?? []).map((f) => `${f.manager}/${f.operation}`);

test("up applies every object to the API server under the stack's field manager", async () => {
    const t0 = Date.now();
    const r = await apply(options);
    assert.equal(r.ok, true, r.error);
    console.log(`first up ${Date.now() - t0} ms`);
    const entries = kubeResources(r);
    const kinds = new Set(entries.map((e) => refOf(e).kind));
    for (const kind of [
        "Namespace",
        "ServiceAccount",
        "ConfigMap",
        "ClusterRole",
        "ClusterRoleBinding",
        "Role",
        "RoleBinding",
        "DaemonSet",
    ])
        assert.ok(kinds.has(kind), kind);
    assert.equal(r.counts.created, r.ops.length);

    for (const e of entries) {
        const live = await admin.get(refOf(e));
        assert.ok(managers(live).includes(`${managerOf(e)}/Apply`), `${e.name}: managers ${managers(live).join(", ")}`);
        // Outputs are the declared fields only: nothing the server filled in.
        const meta = e.outputs.metadata as Record<string, unknown>;
        for (const serverField of ["uid", "resourceVersion", "managedFields", "creationTimestamp"])
            assert.ok(!(serverField in meta), `${e.name}: ${serverField}`);
        assert.ok(!("status" in e.outputs), e.name);
        assert.equal(e.outputs.__fieldManager, managerOf(e));
    }
    const cm = await admin.get(configMapRef);
    assert.equal((cm.data as Record<string, string>).mtu, "1400");
    assert.equal(r.outputs.namespace, "ovn-kubernetes");

    // The kubeconfig (with the admin's private key) is a sealed secret in the state, never in the clear.
    const stateText = fs.readFileSync(r.statePath, "utf8");
    const keyBody = adminKeyPem.split("\n")[1];
    assert.ok(!stateText.includes(keyBody) && !stateText.includes(Buffer.from(adminKeyPem).toString("base64").slice(0, 40)));
    assert.ok(!JSON.stringify(r).includes(keyBody));
});

test("a second up changes nothing, also after the controllers wrote status", async () => {
    // The DaemonSet controller reports on both DaemonSets: status that is not the stack's.
    await pollUntil(
        async () => {
            const list = await admin.list("apps/v1", "DaemonSet", { namespace: "ovn-kubernetes" });
            return list.length > 0 && list.every((d) => (d.status as { observedGeneration?: number } | undefined)?.observedGeneration)
                ? true
                : undefined;
        },
        { timeoutMs: 30_000, what: "the DaemonSet controller to report the DaemonSets' status" },
    );
    const r = await apply(options);
    assert.equal(r.ok, true, r.error);
    assert.deepEqual(changed(r), []);
    const seen = await refresh({ ...options, dryRun: true });
    assert.equal(seen.ok, true, seen.error);
    assert.deepEqual(seen.drift, []);
});

test("a ConfigMap value edited by hand is drift for refresh, and up --refresh puts it back", async () => {
    await admin.patch(configMapRef, { data: { mtu: "9000" } }, "merge", { fieldManager: "kubectl-edit" });
    const seen = await refresh({ ...options, dryRun: true });
    assert.equal(seen.ok, true, seen.error);
    assert.deepEqual(
        seen.drift.map((d) => [d.type, d.change, d.keys]),
        [["kubernetes:core/v1:ConfigMap", "changed", ["data"]]],
    );

    const fixed = await apply({ ...options, refresh: true });
    assert.equal(fixed.ok, true, fixed.error);
    assert.deepEqual(
        fixed.drift.map((d) => d.type),
        ["kubernetes:core/v1:ConfigMap"],
    );
    assert.deepEqual(
        changed(fixed).map((o) => [o.type, o.op, o.keys]),
        [["kubernetes:core/v1:ConfigMap", "update", ["data"]]],
    );
    const cm = await admin.get(configMapRef);
    assert.equal((cm.data as Record<string, string>).mtu, "1400");
    assert.deepEqual((await refresh({ ...options, dryRun: true })).drift, []);
});

test("an object whose create the engine lost (killed after the API server made it) is taken over by the next up: the program's provider upserts", async () => {
    const statePath = path.join(work, "state", `${STACK}.json`);
    const state = JSON.parse(fs.readFileSync(statePath, "utf8")) as { resources: StateEntry[] };
    const lost = state.resources.find((e) => e.type === "kubernetes:core/v1:ConfigMap")!;
    fs.writeFileSync(statePath, JSON.stringify({ ...state, resources: state.resources.filter((e) => e !== lost) }));
    assert.ok(await admin.tryGet(configMapRef), "the ConfigMap is still in the cluster");

    const up = await apply(options);
    assert.equal(up.ok, true, up.error);
    assert.deepEqual(
        changed(up).map((o) => `${o.op} ${o.name}`),
        [`create ${lost.name}`],
    );
    assert.deepEqual(changed(await apply(options)), [], "the up after it changes nothing");
});

test("without the provider's upsertExistingObjects, a create of an object that is there is refused as AlreadyExists, naming it, as pulumi-kubernetes 4.29+ does", async () => {
    const lost = kubeResources(await refresh({ ...options, dryRun: true })).find((e) => e.type === "kubernetes:core/v1:ConfigMap")!;
    const api = kubernetesApi({ project: PROJECT, stack: STACK } as HandlerContext);
    await assert.rejects(
        api.create({ client: admin, defaultNamespace: "default", upsertExistingObjects: false }, lost.type, lost.inputs as Props),
        /ConfigMap ovn-kubernetes\/ovn-config already exists in the cluster: set upsertExistingObjects on the provider/,
    );
});

test("destroy deletes every object, waits until the namespace is gone, and gives up what patches held", async () => {
    const before = kubeResources(await refresh({ ...options, dryRun: true }));
    assert.ok(
        before.some((e) => refOf(e).kind === "Namespace"),
        "nothing to destroy",
    );
    const t0 = Date.now();
    const r = await destroy(options);
    assert.equal(r.ok, true, r.error);
    console.log(`destroy ${Date.now() - t0} ms`);
    assert.equal(r.counts.deleted, r.ops.length);
    for (const e of before.filter((x) => !isPatch(x))) assert.equal(await admin.tryGet(refOf(e)), undefined, `${e.name} still exists`);
    // A patched object stays, without what the patch had set.
    for (const e of before.filter(isPatch)) {
        const live = await admin.tryGet(refOf(e));
        for (const key of Object.keys(annotationsOf(e.inputs)))
            assert.ok(live === undefined || !(key in annotationsOf(live)), `${e.name}: ${key} left on the object`);
        assert.ok(
            live === undefined || !managers(live).some((m) => m.startsWith(`${managerOf(e)}/`)),
            `${e.name}: managers ${live && managers(live).join(", ")}`,
        );
    }
    assert.deepEqual(JSON.parse(fs.readFileSync(r.statePath, "utf8")).resources, []);
});
