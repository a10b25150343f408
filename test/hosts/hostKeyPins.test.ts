// Host key pins as @pulumi/command needs them: validate refuses a fingerprint (the provider wants
// the key itself) and a damaged key line, naming the node and how to get the key; every host
// command's connection carries the pinned key line; a host command with a delete cannot be asked
// to replace create-first.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { test } from "node:test";
import * as pulumi from "@pulumi/pulumi";
import { ConfigError, validateConfig } from "../../components/plan/validate";
import { hostCommand } from "../../components/hosts/command";
import { buildClusterModel } from "../../components/model/clusterModel";
import { sshConnection } from "../../components/program/connections";
import { stackConfig } from "../../lab/harness/configs";

/** ssh-keygen's fingerprint of a key line: independent of the code under test. */
function keygenFingerprint(line: string): string {
    const dir = fs.mkdtempSync(path.join(tmpdir(), "pin-"));
    try {
        fs.writeFileSync(path.join(dir, "key.pub"), `${line}\n`);
        return execFileSync("ssh-keygen", ["-l", "-E", "sha256", "-f", path.join(dir, "key.pub")], { encoding: "utf8" }).split(" ")[1];
    } finally {
        fs.rmSync(dir, { recursive: true, force: true });
    }
}

function problemsOf(config: Record<string, any>): Array<{ path: string; message: string }> {
    try {
        validateConfig(config);
    } catch (e) {
        if (e instanceof ConfigError) return e.problems;
        throw e;
    }
    return [];
}

test("a fingerprint pin is refused with the node's path and the ssh-keyscan command for its address", () => {
    const config = stackConfig("prod");
    config.nodes[1].hostKey = keygenFingerprint(config.nodes[1].hostKey);
    assert.match(config.nodes[1].hostKey, /^SHA256:/);
    const problems = problemsOf(config);
    assert.deepEqual(
        problems.map((p) => p.path),
        ["nodes[1].hostKey"],
    );
    assert.match(problems[0].message, /fingerprint cannot be verified by @pulumi\/command/);
    assert.ok(problems[0].message.includes(`ssh-keyscan -t ed25519 ${config.nodes[1].address}`), problems[0].message);
});

test("a key line whose data is not a key of its type is refused as damaged", () => {
    const config = stackConfig("prod");
    config.nodes[2].hostKey = config.nodes[2].hostKey.replace(/^ssh-ed25519/, "ssh-rsa");
    const problems = problemsOf(config);
    assert.deepEqual(
        problems.map((p) => p.path),
        ["nodes[2].hostKey"],
    );
    assert.match(problems[0].message, /is damaged: its data does not hold a ssh-rsa key/);
});

test("every host's command connection pins its key line (comment dropped); none without a pin", () => {
    const model = buildClusterModel(validateConfig(stackConfig("prod")));
    for (const host of model.hosts) {
        const c = sshConnection(host, "KEY");
        const [type, data] = host.ssh.hostKey!.split(" ");
        assert.equal(c.hostKey, `${type} ${data}`, host.name);
        assert.equal(keygenFingerprint(c.hostKey!), keygenFingerprint(host.ssh.hostKey!));
    }
    const insecure = stackConfig("prod");
    insecure.ssh = { ...insecure.ssh, insecureIgnoreHostKey: true };
    insecure.lab = true;
    delete insecure.nodes[0].hostKey;
    const central = buildClusterModel(validateConfig(insecure)).hosts[0];
    assert.equal("hostKey" in sshConnection(central, "KEY"), false);
});

test("a host command with a delete script refuses deleteBeforeReplace: false, before registering anything", () => {
    const parent = {} as pulumi.Resource;
    const script = { create: "true", delete: "true" };
    assert.throws(
        () =>
            hostCommand(
                parent,
                "node1-mgmt-port",
                script,
                { connection: { host: "h", port: 22, user: "root", privateKey: "k" } },
                { deleteBeforeReplace: false },
            ),
        /node1-mgmt-port: a host command with a delete script is replaced delete-first/,
    );
});
