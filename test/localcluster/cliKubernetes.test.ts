// `npm run local -- up --os debian12 --kubernetes` as a user runs it: hosts, a control plane that
// answers, every host registered as a Node (Debian 12 has no containerd 2, so no kubelet runs:
// the Node and its Lease are kept fresh, never Ready), and a stack file in ovnkube mode that
// carries the admin kubeconfig as a secret; down leaves nothing.
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { after, test } from "node:test";
import YAML from "yaml";
import { KubeClient, pollUntil } from "../../lab/kubeclient";
import { down, LOCAL_LAB_PASSPHRASE } from "../../lab/localcluster";
import { PROJECT_ROOT, stateDir } from "../../lab/localcluster/names";
import { PassphraseSecrets } from "../../lab/offline/passphraseSecrets";
import { NO_RUNTIME_MESSAGE } from "../../lab/localcluster/registration/nodeObject";
import { leftovers } from "./leftovers";

const ID = "lcclik8s";

function cli(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
    return new Promise((resolve) => {
        execFile(
            process.execPath,
            ["--import", "tsx", "lab/localcluster/cli.ts", ...args],
            {
                cwd: PROJECT_ROOT,
                encoding: "utf8",
                timeout: 300_000,
                env: { ...process.env, PULUMI_CONFIG_PASSPHRASE: LOCAL_LAB_PASSPHRASE },
            },
            (err, stdout, stderr) => resolve({ code: err ? Number(err.code) : 0, stdout, stderr }),
        );
    });
}

after(async () => {
    await down(ID);
});

test("up --os debian12 --kubernetes: every host a registered Node with its Lease renewed, the API answering with the stack's kubeconfig, down leaves nothing", async () => {
    await down(ID);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "lc-clik8s-"));
    const stack = path.join(dir, "Pulumi.local.yaml");
    try {
        const upRun = await cli(
            "up",
            "2",
            "--id",
            ID,
            "--subnet",
            "172.31.251.0/24",
            "--os",
            "debian12",
            "--kubernetes",
            "--stack-file",
            stack,
        );
        assert.equal(upRun.code, 0, upRun.stderr + upRun.stdout);
        assert.match(upRun.stdout, /node1\s+172\.31\.251\.11\s+debian12/);
        assert.match(upRun.stdout, /kubectl: KUBECONFIG=\S+admin\.kubeconfig kubectl get nodes/);
        assert.match(
            upRun.stdout,
            /ovn-kubernetes 1\.3: every host registered as a Node, with no kubelet \(debian12 lacks containerd 2\): ovnkube cannot run here/,
        );
        assert.match(upRun.stdout, /\(ovnkube mode\)/);

        const file = YAML.parse(fs.readFileSync(stack, "utf8"));
        const config = file.config;
        assert.equal(config["ovn-kubernetes:kubernetes"].enabled, true);
        assert.match(config["ovn-kubernetes:apiServer"].url, /^https:\/\/172\.31\.251\.\d+:6443$/);
        assert.equal(typeof config["ovn-kubernetes:kubeconfig"].secure, "string", "the kubeconfig is a secret of the stack");
        const kubeconfig = PassphraseSecrets.open(LOCAL_LAB_PASSPHRASE, file.encryptionsalt).decrypt(
            config["ovn-kubernetes:kubeconfig"].secure,
        );

        // The stack's own kubeconfig reaches the API server, which lists both hosts as Nodes with their underlay address.
        const client = KubeClient.fromKubeconfig(kubeconfig);
        try {
            const version = await client.getPath<{ gitVersion: string }>("/version");
            assert.equal(version.gitVersion, "v1.36.2");
            type Condition = { type: string; status: string; reason?: string; message?: string };
            const nodes = (await client.list("v1", "Node")) as Array<{
                metadata: { name: string; uid: string; labels?: Record<string, string> };
                status?: { addresses?: Array<{ type: string; address: string }>; conditions?: Condition[] };
            }>;
            assert.deepEqual(nodes.map((n) => n.metadata.name).sort(), ["node1", "node2"]);
            for (const n of nodes) {
                const internal = n.status?.addresses?.find((a) => a.type === "InternalIP")?.address;
                assert.equal(internal, n.metadata.name === "node1" ? "172.31.251.11" : "172.31.251.12");
            }
            assert.ok("node-role.kubernetes.io/control-plane" in (nodes.find((n) => n.metadata.name === "node1")!.metadata.labels ?? {}));
            for (const n of nodes) {
                const ready = n.status?.conditions?.find((c) => c.type === "Ready");
                assert.deepEqual(
                    [ready?.status, ready?.reason, ready?.message],
                    ["False", "KubeletNotReady", NO_RUNTIME_MESSAGE],
                    n.metadata.name,
                );
            }
            // Each Node's Lease, owned by it, renewed every 10 s as a kubelet renews it.
            type Lease = {
                metadata: { ownerReferences?: Array<{ kind: string; uid: string }> };
                spec: { holderIdentity: string; renewTime: string };
            };
            const lease = async (name: string) =>
                (await client.get({
                    apiVersion: "coordination.k8s.io/v1",
                    kind: "Lease",
                    namespace: "kube-node-lease",
                    name,
                })) as unknown as Lease;
            for (const n of nodes) {
                const first = await lease(n.metadata.name);
                assert.equal(first.spec.holderIdentity, n.metadata.name);
                assert.deepEqual(
                    first.metadata.ownerReferences?.map((o) => [o.kind, o.uid]),
                    [["Node", n.metadata.uid]],
                );
                await pollUntil(async () => ((await lease(n.metadata.name)).spec.renewTime > first.spec.renewTime ? true : undefined), {
                    timeoutMs: 30_000,
                    intervalMs: 1000,
                    what: `the Lease of ${n.metadata.name} to be renewed`,
                });
            }
        } finally {
            client.close();
        }

        const downRun = await cli("down", "--id", ID);
        assert.equal(downRun.code, 0, downRun.stderr);
        assert.deepEqual(leftovers(ID), { netns: [], links: [], mounts: [] });
        assert.equal(fs.existsSync(stateDir(ID)), false);
    } finally {
        fs.rmSync(dir, { recursive: true, force: true });
    }
});

test("--ovn-kubernetes names a release the lab has and goes with --kubernetes", async () => {
    await down(ID);
    const unknown = await cli("up", "1", "--id", ID, "--kubernetes", "--ovn-kubernetes", "9.9");
    assert.equal(unknown.code, 2);
    assert.match(unknown.stderr, /unknown ovn-kubernetes release "9\.9": use 1\.3, 1\.2/);
    const alone = await cli("up", "1", "--id", ID, "--ovn-kubernetes", "1.3");
    assert.equal(alone.code, 2);
    assert.match(alone.stderr, /--ovn-kubernetes goes with --kubernetes/);
    assert.equal(fs.existsSync(stateDir(ID)), false, "nothing was made");
});
