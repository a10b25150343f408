// The offline apply's pure parts: config as the engine passes it, host key pins, the sealed state
// file, redaction, Kubernetes schema problems as field paths, secrecy of outputs, the CLI's text.
import assert from "node:assert/strict";
import * as fs from "node:fs";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { test } from "node:test";
import YAML from "yaml";
import { PassphraseSecrets } from "../../lab/offline/passphraseSecrets";
import { main } from "../../lab/offline/cli";
import { fieldPath, kubeProblems } from "../../lab/offline/kubeSchema";
import { Redactor } from "../../lab/offline/redact";
import type { OperationResult } from "../../lab/offline/results";
import { isSecretValue, UNKNOWN_VALUE } from "../../lab/offline/sdk";
import { findPassphrase, Keyring } from "../../lab/offline/secrets";
import { loadState, saveState, emptyState } from "../../lab/offline/state";
import { hostKeyPins, readStackConfig } from "../../lab/offline/stackConfig";
import { footer, opLine } from "../../lab/offline/summary";
import { annotateSecrets, changedKeys, maskSecrets, secret } from "../../lab/offline/values";

const PASS = "parts test passphrase";
const project = { dir: "/nowhere", name: "proj", stackConfigDir: "." };
const tmp = () => mkdtempSync(path.join(tmpdir(), "offline-parts-"));

test("stack config becomes PULUMI_CONFIG: strings as is, other values as JSON, secure values decrypted and listed as secret", () => {
    const box = PassphraseSecrets.create(PASS);
    const file = path.join(tmp(), "Pulumi.s.yaml");
    const doc = {
        encryptionsalt: box.encryptionSalt,
        config: {
            "proj:name": "value",
            "proj:port": 22,
            "proj:nested": { a: [1, { b: { secure: box.encrypt("deep secret") } }] },
            "proj:key": { secure: box.encrypt("top secret") },
            bare: "no namespace",
            "kubernetes:context": "other package",
        },
    };
    fs.writeFileSync(file, YAML.stringify(doc));
    const c = readStackConfig(project, file, new Keyring(PASS, "s"));
    assert.deepEqual(c.config, {
        "proj:name": "value",
        "proj:port": "22",
        "proj:nested": '{"a":[1,{"b":"deep secret"}]}',
        "proj:key": "top secret",
        "proj:bare": "no namespace",
        "kubernetes:context": "other package",
    });
    assert.deepEqual(c.secretKeys.sort(), ["proj:key", "proj:nested"]);
    assert.deepEqual(c.secretValues.sort(), ["deep secret", "top secret"]);
    assert.deepEqual(Object.keys(c.projectValues).sort(), ["bare", "key", "name", "nested", "port"]);
    assert.throws(() => readStackConfig(project, file, new Keyring("wrong", "s")), /proj:nested: incorrect passphrase/);
    assert.throws(() => readStackConfig(project, file, new Keyring(undefined, "s")), /set PULUMI_CONFIG_PASSPHRASE/);
});

test("the passphrase comes from the option, the environment or its file; local lab stacks have a default", () => {
    const dir = tmp();
    fs.writeFileSync(path.join(dir, "pass"), "from file\n");
    assert.equal(findPassphrase("dev", "given", { PULUMI_CONFIG_PASSPHRASE: "env" }), "given");
    assert.equal(findPassphrase("dev", undefined, { PULUMI_CONFIG_PASSPHRASE: "env" }), "env");
    assert.equal(findPassphrase("dev", undefined, { PULUMI_CONFIG_PASSPHRASE_FILE: path.join(dir, "pass") }), "from file");
    assert.equal(findPassphrase("dev", undefined, {}), undefined);
    assert.equal(typeof findPassphrase("local", undefined, {}), "string");
});

test("host key pins come from nodes[] with each node's port, else ssh.port, else 22", () => {
    const values = {
        ssh: { port: 2222 },
        nodes: [
            { address: "10.0.0.1", hostKey: "SHA256:a" },
            { address: "10.0.0.2", port: 22, hostKey: "ssh-ed25519 AAAA b" },
            { address: "10.0.0.3" },
        ],
    };
    assert.deepEqual(hostKeyPins(values), { pins: { "10.0.0.1:2222": "SHA256:a", "10.0.0.2:22": "ssh-ed25519 AAAA b" }, insecure: false });
    assert.equal(hostKeyPins({ ssh: { insecureIgnoreHostKey: true } }).insecure, true);
});

test("the state file seals secrets with the passphrase key, is private, and reads back the same", () => {
    const file = path.join(tmp(), "state", "s.json");
    const keyring = new Keyring(PASS, "s");
    const state = emptyState("proj", "s");
    state.resources.push({
        urn: "urn:a",
        type: "command:remote:Command",
        name: "a",
        parent: "",
        custom: true,
        id: "a1",
        inputs: { connection: secret({ host: "h", privateKey: "PRIVATE-KEY-TEXT" }), create: "true" },
        outputs: { stdout: "", stdin: secret("STDIN-TEXT") },
        dependencies: [],
    });
    const saved = saveState(file, state, keyring);
    const text = fs.readFileSync(file, "utf8");
    assert.ok(!text.includes("PRIVATE-KEY-TEXT") && !text.includes("STDIN-TEXT"));
    assert.match(text, /"ciphertext": "v1:/);
    assert.equal(fs.statSync(file).mode & 0o777, 0o600);
    const loaded = loadState(file, new Keyring(PASS, "s"), "proj", "s");
    assert.deepEqual(loaded.resources, state.resources);
    assert.equal(loaded.encryptionSalt, saved.encryptionSalt);
    assert.throws(() => loadState(file, new Keyring("wrong", "s"), "proj", "s"), /incorrect passphrase/);
    assert.deepEqual(loadState(path.join(path.dirname(file), "none.json"), keyring, "proj", "s").resources, []);
});

test("redaction hides whole secrets and their lines, but not values also known in the clear", () => {
    const r = new Redactor();
    r.add(["-----BEGIN KEY-----\nline-one-of-key\nline-two-of-key\n-----END KEY-----", "127.0.0.1", "short"]);
    r.addPublic(["127.0.0.1"]);
    assert.equal(r.text("tail: line-two-of-key at 127.0.0.1 short"), "tail: [secret] at 127.0.0.1 short");
});

test("Kubernetes schema problems are reported as field paths; valid objects pass; unknown kinds are named", () => {
    assert.deepEqual(kubeProblems({ apiVersion: "v1", kind: "ConfigMap", metadata: { name: "x" }, data: { a: "b" } }), []);
    const ds = {
        apiVersion: "apps/v1",
        kind: "DaemonSet",
        metadata: { name: "d" },
        spec: { selector: {}, template: { spec: { containers: [{ name: "c", image: "i", ports: [{ containerPort: "80" }] }] } } },
    };
    assert.deepEqual(kubeProblems(ds), ["spec.template.spec.containers[0].ports[0].containerPort: must be integer"]);
    const noSpec = kubeProblems({ apiVersion: "apps/v1", kind: "DaemonSet", metadata: { name: "d" }, spec: { template: {} } });
    assert.ok(noSpec.includes("spec.selector: is required"), noSpec.join("; "));
    assert.deepEqual(kubeProblems({ apiVersion: "example.com/v1", kind: "Widget" }), [
        "apiVersion/kind: no Kubernetes schema for example.com/v1 Widget",
    ]);
    assert.equal(fieldPath("/a/0/b~1c"), "a[0].b/c");
});

test("outputs stay secret where their inputs were; changed keys ignore secrecy; masking hides secrets", () => {
    const out = annotateSecrets({ a: 1, b: 2, c: 3 }, { a: secret(1), b: 2 }, ["c"]);
    assert.ok(isSecretValue(out.a) && !isSecretValue(out.b) && isSecretValue(out.c));
    assert.deepEqual(changedKeys({ a: secret("x"), b: 1, c: undefined }, { a: "x", b: 2 }), ["b"]);
    assert.deepEqual(maskSecrets({ a: secret("x"), b: [secret(1), 2], c: UNKNOWN_VALUE }), {
        a: "[secret]",
        b: ["[secret]", 2],
        c: "[unknown]",
    });
});

test("the CLI's lines name resources and input names, never values; bad usage exits 2", async () => {
    const op = { op: "replace" as const, urn: "u", type: "command:remote:Command", name: "main", keys: ["triggers"], ms: 1234 };
    assert.match(opLine(op, false), /^ \+- command:remote:Command +main +replaced \[triggers\] \(1\.2s\)$/);
    assert.match(opLine(op, true), /replace \[triggers\]$/);
    const result: OperationResult = {
        operation: "up",
        stack: "s",
        ok: false,
        error: "boom",
        dryRun: false,
        ops: [op],
        counts: { created: 2, updated: 0, replaced: 1, deleted: 0, unchanged: 3 },
        drift: [],
        outputs: { key: "[secret]", n: 1 },
        statePath: "",
        ms: 2000,
    };
    const text = footer(result);
    assert.match(text, /Outputs:\n {4}key: "\[secret\]"\n {4}n: 1/);
    assert.match(text, /Resources:\n {4}\+ 2 created\n {4}\+-1 replaced\n {4}3 unchanged/);
    assert.match(text, /error: boom$/);
    const errors: string[] = [];
    const original = console.error;
    console.error = (m: string) => errors.push(m);
    try {
        assert.equal(await main(["launch", "--stack", "s"]), 2);
        assert.equal(await main(["up"]), 2);
    } finally {
        console.error = original;
    }
    assert.match(errors.join("\n"), /usage: offline\/cli\.ts/);
});
