// What validation lets through but says aloud, and how stack files and the SDK's config reach it:
// warnings for lab-only settings, misspelled namespaces, secrets in plain text.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { test } from "node:test";
import * as pulumi from "@pulumi/pulumi";
import { configFromStackYaml } from "../../components/config/stackFile";
import { ConfigError, validateConfig } from "../../components/plan/validate";
import { configWarnings, renameWarnings } from "../../components/config/warnings";
import { readStackConfig } from "../../components/program/readConfig";
import { ROOT, stackConfig } from "../../lab/harness/configs";

const warningPaths = (raw: Record<string, any>) => configWarnings(validateConfig(raw)).map((w) => w.path);

test("insecureIgnoreHostKey: refused unless the stack is marked as a lab, and then not warned about", () => {
    const cfg = stackConfig("prod");
    cfg.ssh.insecureIgnoreHostKey = true;
    assert.throws(
        () => validateConfig(cfg),
        (e: unknown) => e instanceof ConfigError && e.problems.map((p) => p.path).join() === "ssh.insecureIgnoreHostKey",
    );
    assert.deepEqual(warningPaths({ ...cfg, lab: true }), []);
});

test("plain tcp NB/SB: a warning, none with ssl", () => {
    assert.deepEqual(warningPaths(stackConfig("dev")), ["ovnTransport.protocol"]);
    assert.deepEqual(warningPaths(stackConfig("prod")), []);
});

test("nodes behind one NAT address with their own SSH ports are accepted", () => {
    const cfg = stackConfig("dev");
    cfg.nodes[1].address = cfg.nodes[2].address = "203.0.113.7";
    cfg.nodes[1].tunnelIp = "10.0.0.11";
    cfg.nodes[2].tunnelIp = "10.0.0.12";
    cfg.nodes[1].port = 2201;
    cfg.nodes[2].port = 2202;
    assert.equal(validateConfig(cfg).nodes.length, 3);
});

test("validate prints warnings on stderr and still exits 0; a lab-only switch outside a lab exits 1", () => {
    const text = readFileSync(path.join(ROOT, "stacks/Pulumi.dev.yaml"), "utf8");
    const dir = mkdtempSync(path.join(tmpdir(), "warn-"));
    const file = path.join(dir, "Pulumi.dev.yaml");
    writeFileSync(file, text);
    const r = spawnSync(process.execPath, ["--import", "tsx", "cli/validate.ts", file], { cwd: ROOT, encoding: "utf8" });
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stderr, /warning: ovnTransport\.protocol: tcp/);
    const lab = path.join(dir, "Pulumi.lab.yaml");
    writeFileSync(lab, `${text}  ovn-kubernetes:ssh:\n    insecureIgnoreHostKey: true\n`);
    const refused = spawnSync(process.execPath, ["--import", "tsx", "cli/validate.ts", lab], { cwd: ROOT, encoding: "utf8" });
    assert.equal(refused.status, 1, refused.stderr);
    assert.match(refused.stderr, /ssh\.insecureIgnoreHostKey: accepts any host key.*`lab: true`/);
});

test("a node renamed since the previous stack file: a warning at its name naming both, none for additions, removals or NAT neighbours", () => {
    const previous = validateConfig(stackConfig("dev"));
    const renamed = stackConfig("dev");
    const old = renamed.nodes[1].name;
    renamed.nodes[1].name = `${old}b`;
    const warnings = renameWarnings(previous, validateConfig(renamed));
    assert.deepEqual(
        warnings.map((w) => w.path),
        ["nodes[1].name"],
    );
    assert.match(
        warnings[0].message,
        new RegExp(
            `^"${old}b" is node "${old}" renamed \\(${renamed.nodes[1].address.replace(/\./g, "\\.")}:22\\): a rename replaces the node`,
        ),
    );
    const shrunk = stackConfig("dev");
    shrunk.nodes.splice(1, 1);
    assert.deepEqual(renameWarnings(previous, validateConfig(shrunk)), []);
    assert.deepEqual(renameWarnings(validateConfig(shrunk), previous), []);

    const dir = mkdtempSync(path.join(tmpdir(), "rename-"));
    const text = readFileSync(path.join(ROOT, "stacks/Pulumi.dev.yaml"), "utf8");
    const before = path.join(dir, "Pulumi.before.yaml");
    const after = path.join(dir, "Pulumi.dev.yaml");
    writeFileSync(before, text);
    writeFileSync(after, text.replace(new RegExp(`name: ${old}$`, "m"), `name: ${old}b`));
    const r = spawnSync(process.execPath, ["--import", "tsx", "cli/validate.ts", after, "--previous", before], {
        cwd: ROOT,
        encoding: "utf8",
    });
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stderr, new RegExp(`warning: nodes\\[1\\]\\.name: "${old}b" is node "${old}" renamed`));
});

test("stack file: keys under a misspelled namespace are unknown settings, other packages' keys are not", () => {
    const raw = configFromStackYaml(
        "config:\n  ovn-kubernets:mtu: 9000\n  OVN-Kubernetes:nodes: []\n  kubernetes:kubeconfig: x\n  aws:region: eu\n",
    );
    assert.deepEqual(Object.keys(raw).sort(), ["OVN-Kubernetes:nodes", "ovn-kubernets:mtu"]);
});

/** The dev stack as the engine hands it to the program, with `change` applied to the engine's config. */
function readThroughSdk(change: (config: Record<string, string>) => void) {
    const config: Record<string, string> = {};
    for (const [k, v] of Object.entries(stackConfig("dev"))) config[`ovn-kubernetes:${k}`] = typeof v === "string" ? v : JSON.stringify(v);
    change(config);
    pulumi.runtime.setAllConfig(config, []);
    return readStackConfig(new pulumi.Config("ovn-kubernetes")).raw;
}

test("SDK config: a secret key set without --secret is refused, its value never shown", () => {
    const value = "-----BEGIN OPENSSH PRIVATE KEY-----plain";
    const raw = readThroughSdk((c) => (c["ovn-kubernetes:sshPrivateKey"] = value));
    assert.throws(
        () => validateConfig(raw),
        (e: unknown) =>
            e instanceof ConfigError &&
            !e.message.includes(value) &&
            e.problems.some(
                (p) => p.path === "sshPrivateKey" && p.message.includes("pulumi config set --secret ovn-kubernetes:sshPrivateKey"),
            ),
    );
});

test("SDK config: a key under a misspelled namespace is an unknown setting", () => {
    const raw = readThroughSdk((c) => (c["ovn-kubernets:mtu"] = "9000"));
    assert.throws(
        () => validateConfig(raw),
        (e: unknown) => e instanceof ConfigError && e.problems.some((p) => p.path === "ovn-kubernets:mtu"),
    );
});
