import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { test } from "node:test";
import { ROOT } from "../../lab/harness/configs";

const run = (file: string) => spawnSync(process.execPath, ["--import", "tsx", "cli/validate.ts", file], { cwd: ROOT, encoding: "utf8" });

test("validate: a valid stack exits 0 with a one-line summary", () => {
    for (const stack of ["dev", "prod", "staging"]) {
        const r = run(`stacks/Pulumi.${stack}.yaml`);
        assert.equal(r.status, 0, r.stderr);
        assert.equal(r.stdout.trim().split("\n").length, 1);
        assert.match(r.stdout, /valid: \d+ hosts, \d+ node switches, \d+ gateways?/);
    }
});

test("validate: an invalid stack exits 1 with one line per problem, naming paths", () => {
    const text = readFileSync(path.join(ROOT, "stacks/Pulumi.dev.yaml"), "utf8")
        .replace("ovn-kubernetes:mtu: 1400", "ovn-kubernetes:mtu: 20")
        .replace("subnet: 192.168.2.0/24", "subnet: 192.168.1.0/24");
    const file = path.join(mkdtempSync(path.join(tmpdir(), "validate-")), "Pulumi.bad.yaml");
    writeFileSync(file, text);
    let r = run(file);
    assert.equal(r.status, 1);
    assert.match(r.stderr, /: mtu: must be >= 576/);
    // Schema problems come first; fix them and the semantic one shows.
    writeFileSync(file, text.replace("ovn-kubernetes:mtu: 20", "ovn-kubernetes:mtu: 1400"));
    r = run(file);
    assert.equal(r.status, 1);
    assert.deepEqual(r.stderr.trim().split("\n").length, 1);
    assert.match(r.stderr, /nodes\[1\]\.subnet: 192\.168\.1\.0\/24 overlaps nodes\[0\]\.subnet/);
    assert.equal(r.stdout, "");
});
