// The Kubernetes API token of a Pulumi-mode stack with an https API server, through a whole apply
// of the real program (index.ts) on two namespaced hosts: it reaches each chassis' Open_vSwitch
// row, and appears in no process's argv sampled during the apply, no OVS or OVN log of any host,
// nothing the apply returned, and nothing of the stack's directory (state, checkpoint, logs) in
// plain text or in the base64 the host scripts read it in.
import assert from "node:assert/strict";
import * as fs from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { after, before, test } from "node:test";
import { down, hostExec, LOCAL_LAB_PASSPHRASE, up, writeLocalStack, type LocalCluster } from "../../lab/localcluster";
import { apply, destroy, type OfflineOptions } from "../../lab/offline/api";
import { sampleCommandLines } from "../hosts/support/argvSampler";
import { makePki } from "../../lab/harness/pki";
import { setStackConfig } from "../support/stackSecrets";

const ID = "offsec";
const STACK = `local-${ID}`;
const TOKEN = "tok-offsec-5d0f3b9a71c2e84f-NEVER-SHOWN";
/** A real CA certificate: validation parses it. */
const CA = makePki("offsec").ca;
/** What must never appear: the token, and the start of its base64 (the scripts' stdin form). */
const NEEDLES = [TOKEN, Buffer.from(TOKEN).toString("base64").slice(0, 24)];

let cluster: LocalCluster;
let work: string;
let options: OfflineOptions;

/** Every file under `dir` whose bytes contain a needle, with the needle. */
function filesHolding(dir: string): string[] {
    const found: string[] = [];
    for (const entry of fs.readdirSync(dir, { recursive: true, withFileTypes: true })) {
        if (!entry.isFile()) continue;
        const file = path.join(entry.parentPath, entry.name);
        const text = fs.readFileSync(file, "latin1");
        for (const n of NEEDLES) if (text.includes(n)) found.push(`${file}: ${n}`);
    }
    return found;
}

before(async () => {
    await down(ID);
    cluster = await up({ id: ID, hosts: 2 });
    work = fs.mkdtempSync(path.join(tmpdir(), "offline-secrets-"));
    const stackFile = writeLocalStack(cluster, path.join(work, `Pulumi.${STACK}.yaml`), { passphrase: LOCAL_LAB_PASSPHRASE });
    // The API server behind https, with its token and CA as the stack's secrets.
    setStackConfig(stackFile, LOCAL_LAB_PASSPHRASE, {
        plain: { "ovn-kubernetes:apiServer": { url: `https://${cluster.hosts[0].ip}:6443` } },
        secret: { "ovn-kubernetes:k8sApiToken": TOKEN, "ovn-kubernetes:k8sCaCertificate": CA },
    });
    options = { stack: STACK, stackFile, localDir: work, passphrase: LOCAL_LAB_PASSPHRASE };
});

after(async () => {
    if (options) await destroy(options);
    await down(ID);
    if (work) fs.rmSync(work, { recursive: true, force: true });
});

test("apply with an https API server: the token is on every chassis and in no argv, log, result or state file", async () => {
    const sampler = sampleCommandLines();
    const r = await apply(options);
    const argv = await sampler.stop();
    assert.equal(r.ok, true, r.error);
    assert.ok(argv.passes > 100, `only ${argv.passes} sampling passes`);
    assert.ok(
        argv.commandLines.some((l) => l.includes("sshd")),
        "the sampler saw the apply's SSH sessions",
    );

    for (const h of cluster.hosts) {
        const ids = await hostExec(cluster, h.name, [
            "ovs-vsctl",
            "--if-exists",
            "get",
            "Open_vSwitch",
            ".",
            "external_ids:k8s-api-token",
            "external_ids:k8s-api-server",
        ]);
        assert.equal(ids.code, 0, ids.stderr);
        assert.deepEqual(
            ids.stdout
                .trim()
                .split("\n")
                .map((l) => l.replace(/^"|"$/g, "")),
            [TOKEN, `https://${cluster.hosts[0].ip}:6443`],
            `${h.name}: external_ids`,
        );
        const logs = await hostExec(cluster, h.name, [
            "bash",
            "-c",
            `grep -rlF -e ${NEEDLES.map((n) => `'${n}'`).join(" -e ")} /var/log/openvswitch /var/log/ovn || true`,
        ]);
        assert.equal(logs.stdout.trim(), "", `${h.name}: logs holding the token`);
    }
    for (const n of NEEDLES) {
        assert.deepEqual(
            argv.commandLines.filter((l) => l.includes(n)),
            [],
            `a command line holding ${n}`,
        );
        assert.ok(!JSON.stringify(r).includes(n), `the apply's result holds ${n}`);
    }
    const stateFiles = fs.readdirSync(work, { recursive: true }).length;
    assert.ok(stateFiles > 1, `the stack's directory holds ${stateFiles} files`);
    assert.deepEqual(filesHolding(work), []);
});
