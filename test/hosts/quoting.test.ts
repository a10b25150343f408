// The one quoting helper, and the secret-lines stdin format, proven through real bash.
import assert from "node:assert/strict";
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { bashBody, bashScript, shellQuote } from "../../components/hosts/scripts/shell";
import { encodeSecretLines } from "../../components/hosts/scripts/secrets";
import { runLocal } from "./support/bash";
import { SECRETS } from "./fixtures";

const dir = mkdtempSync(join(tmpdir(), "hosts-quoting-"));
const marker = join(dir, "pwned");
test.after(() => rmSync(dir, { recursive: true, force: true }));

const NASTY = [
    `$(touch ${marker})`,
    "`touch " + marker + "`",
    `'; touch ${marker}; echo '`,
    `"; touch ${marker}; echo "`,
    `a\nb; touch ${marker}\n`,
    "${HOME} $PATH \\ \\' * ? [a] ~ & | ; < > ( ) { } ! #",
    "",
    "'",
    "''''",
    "trailing\\",
];

test("shellQuote: bash reads every value back unchanged and runs nothing in it", () => {
    for (const value of NASTY) {
        const r = runLocal(["bash", "-c", `v=${shellQuote(value)}; printf '%s' "$v"`]);
        assert.equal(r.code, 0, r.stderr);
        assert.equal(r.stdout, value);
        assert.equal(existsSync(marker), false, `ran code from ${JSON.stringify(value)}`);
    }
});

test("shellQuote: a value is one word even unquoted at the use site of the assignment", () => {
    const r = runLocal(["bash", "-c", `set -- ${shellQuote("a b\tc")}; printf '%s' "$#"`]);
    assert.equal(r.stdout, "1");
});

test("shellQuote refuses NUL, which no bash variable can hold", () => {
    assert.throws(() => shellQuote("a\0b"), /NUL/);
});

test("bashScript: variables are assigned quoted before the one line that runs the bundle; the bundle's constants and common functions stay out", () => {
    const script = bashScript({ value: NASTY[0], other: "x" }, ["ovs-start"]);
    const lines = script.trimEnd().split("\n");
    assert.deepEqual(lines.slice(0, 2), [`value=${shellQuote(NASTY[0])}`, "other='x'"]);
    assert.match(lines[2], /^\. \/usr\/local\/lib\/ovn-kubernetes-as-code\/[0-9a-f]{16}\/run\.sh ovs-start$/);
    assert.ok(!/set -x|set -o xtrace/.test(script));
    assert.throws(() => bashScript({ "bad-name": "x" }, ["ovs-start"]), /bad script variable name/);
    assert.throws(() => bashScript({}, ["common", "ovs-start"]), /run\.sh reads common before every command's bodies/);
    assert.throws(() => bashScript({ boot_dir: "/tmp" }, ["boot-entry"]), /boot_dir is a constant of the bundle/);
    assert.throws(() => bashScript({}, []), /at least one body/);
});

/** A script that reads secret lines from stdin with the shipped functions, then runs `tail`. */
function secretsProbe(tail: string): string {
    return [bashBody("common"), bashBody("secrets"), "read_secrets", tail].join("\n");
}

test("secret lines: every secret survives the stdin round trip byte for byte", () => {
    const stdin = encodeSecretLines({ "k8s-api-token": SECRETS.token, "k8s-ca-certificate": SECRETS.ca, "ssl-private-key": SECRETS.key });
    assert.ok(!stdin.includes(SECRETS.token) && !stdin.includes("BEGIN"), "secret lines carry base64 only");
    const file = join(dir, "key.pem");
    const r = runLocal(
        [
            "bash",
            "-c",
            secretsProbe(
                `set -euo pipefail; write_secret_file ssl-private-key ${shellQuote(file)}; printf '%s' "\${secret[k8s-api-token]}"`,
            ),
        ],
        stdin,
    );
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, SECRETS.token);
    // A PEM keeps its content; the file is owner-only.
    assert.equal(readFileSync(file, "utf8"), SECRETS.key);
    assert.equal(statSync(file).mode & 0o777, 0o600);
    assert.equal(r.stderr, "", "nothing about the secrets is printed");
});

test("secret lines: malformed input is refused without echoing it", () => {
    for (const [stdin, message] of [
        ["nope c2VjcmV0\n", /unknown secret name/],
        ["k8s-api-token $(touch x)\n", /not base64/],
    ] as const) {
        const r = runLocal(["bash", "-c", secretsProbe("echo done")], stdin);
        assert.notEqual(r.code, 0);
        assert.match(r.stderr, message);
        assert.ok(!r.stderr.includes("c2VjcmV0") && !r.stderr.includes("touch"));
    }
    const missing = runLocal(["bash", "-c", secretsProbe("need_secret ssl-certificate")], "");
    assert.notEqual(missing.code, 0);
    assert.match(missing.stderr, /secret ssl-certificate is required on stdin/);
});
