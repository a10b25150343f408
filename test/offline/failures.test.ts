// How the offline apply fails: with the resource and the reason, before touching what it must not,
// without a secret in any message, and so that the next run converges.
import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { after, before, test } from "node:test";
import { apply, preview } from "../../lab/offline/api";
import { startFixture, STDIN_SECRET, type Fixture } from "./fixtureStack";

let f: Fixture;
before(async () => {
    f = await startFixture();
});
after(async () => {
    await f?.cleanup();
});

const statePath = () => path.join(f.work, "state", "test.json");
const names = () =>
    fs.existsSync(statePath()) ? (JSON.parse(fs.readFileSync(statePath(), "utf8")).resources as { name: string }[]).map((r) => r.name) : [];
// Another host's key (from the example stack): a pin the test sshd cannot match.
const OTHER_KEY = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAII71TdFIWPdW1BL4JS1tIcUqqJYhihYXogEh7sOaXM1n other";

test("an invalid Kubernetes object fails preview and up with its field path, and is not recorded", async () => {
    f.write({ invalidDaemonSet: true });
    const pathMessage =
        /kubernetes:apps\/v1:DaemonSet broken: invalid Kubernetes object:\n {2}spec\.template\.spec\.containers\[0\]\.ports\[0\]\.containerPort: must be integer/;
    const p = await preview(f.options());
    assert.equal(p.ok, false);
    assert.match(p.error ?? "", pathMessage);

    const r = await apply(f.options());
    assert.equal(r.ok, false);
    assert.match(r.error ?? "", pathMessage);
    assert.ok(!names().includes("broken"));
    assert.ok(!fs.readdirSync(path.join(f.work, "test", "manifests")).some((n) => n.includes("broken")));
});

test("a host whose key does not match the pin is refused before any login", async () => {
    fs.rmSync(path.join(f.work, "state"), { recursive: true, force: true });
    const loginsBefore = await f.sshd.acceptedLogins();
    f.write({ hostKey: OTHER_KEY });
    const r = await apply(f.options());
    assert.equal(r.ok, false);
    assert.match(
        r.error ?? "",
        /command:remote:Command main: create: after 9 failed attempts: host key mismatch for 127\.0\.0\.1:\d+: it presented SHA256:\S+, but SHA256:\S+ is pinned/,
    );
    assert.equal(await f.sshd.acceptedLogins(), loginsBefore);
    assert.deepEqual(f.opsLog(), []);
    assert.ok(!names().includes("main"));
});

test("a failing script reports its exit status and output tail with secrets masked; fixed, the next up converges", async () => {
    fs.rmSync(path.join(f.work, "state"), { recursive: true, force: true });
    f.write({ failing: true });
    const r = await apply(f.options());
    assert.equal(r.ok, false);
    // The script printed its stdin (a secret) on stderr: the message keeps the shape, not the secret.
    assert.match(r.error ?? "", /command:remote:Command main: create exited with 3 on root@127\.0\.0\.1:\d+:\n\[secret\]/);
    assert.ok(!JSON.stringify(r).includes(STDIN_SECRET));
    assert.equal(r.ops.find((o) => o.name === "main")?.error, r.error);
    // What was created before the failure stays in the state; the failed command does not.
    assert.ok(names().includes("settings"));
    assert.ok(!names().includes("main"));

    f.write({});
    const fixed = await apply(f.options());
    assert.equal(fixed.ok, true, fixed.error);
    assert.deepEqual(
        fixed.ops
            .filter((o) => o.op === "create")
            .map((o) => o.name)
            .sort(),
        ["file", "main"],
    );
    assert.deepEqual(f.opsLog(), ["main-create"]);
});

test("a wrong passphrase stops before the program runs", async () => {
    const r = await apply(f.options({ passphrase: "not the passphrase" }));
    assert.equal(r.ok, false);
    assert.match(r.error ?? "", /incorrect passphrase/);
    assert.deepEqual(r.ops, []);
});

test("a missing stack file is named", async () => {
    const r = await apply(f.options({ stackFile: path.join(f.work, "Pulumi.nothere.yaml") }));
    assert.equal(r.ok, false);
    assert.match(r.error ?? "", /Pulumi\.nothere\.yaml: no such stack file/);
});
