// The offline apply over a whole life cycle of the test program against a real sshd on loopback:
// create, no-op, preview, update, replace (both orders), refresh drift, removal, destroy. The
// steps build on each other, in order, as an operator's successive runs do.
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { after, before, test } from "node:test";
import { promisify } from "node:util";
import YAML from "yaml";
import { apply, destroy, preview, refresh, type OperationResult } from "../../lab/offline/api";
import { FIXTURE_DIR, PASSPHRASE, startFixture, STDIN_SECRET, type Fixture } from "./fixtureStack";

const run = promisify(execFile);
const ROOT = path.resolve(__dirname, "../..");
let f: Fixture;
/** Everything printed or returned during the run, checked for secrets at the end. */
const seen: string[] = [];

before(async () => {
    f = await startFixture();
});
after(async () => {
    await f?.cleanup();
});

async function up(values: Parameters<Fixture["write"]>[0] = {}): Promise<OperationResult> {
    f.write(values);
    const r = await apply(f.options());
    seen.push(JSON.stringify(r));
    assert.equal(r.ok, true, r.error);
    return r;
}

const ops = (r: OperationResult) => r.ops.filter((o) => o.op !== "same").map((o) => `${o.op} ${o.name}`);
const hostFile = (name: string) => fs.readFileSync(path.join(f.hostDir, name), "utf8");
const manifest = () => YAML.parse(fs.readFileSync(path.join(f.work, "test", "manifests", "default_configmap_settings.yaml"), "utf8"));
const stateText = () => fs.readFileSync(path.join(f.work, "state", "test.json"), "utf8");
const cli = async (...args: string[]) => {
    const argv = [
        "--import",
        "tsx",
        path.join(ROOT, "lab", "offline", "cli.ts"),
        ...args,
        "--stack",
        "test",
        "--project-dir",
        FIXTURE_DIR,
        "--stack-file",
        f.stackFile,
        "--local-dir",
        f.work,
    ];
    const out = await run(process.execPath, argv, { cwd: ROOT, env: { ...process.env, PULUMI_CONFIG_PASSPHRASE: PASSPHRASE } });
    seen.push(out.stdout, out.stderr);
    return out.stdout;
};

test("preview of a new stack lists what it would create and runs nothing", async () => {
    f.write({ extra: true });
    const out = await cli("preview");
    assert.match(out, /Previewing update \(test\):/);
    assert.match(out, /\+ +command:remote:Command +main +create/);
    assert.match(out, /\+ +kubernetes:core\/v1:ConfigMap +settings +create/);
    assert.match(out, /\+ 5 to create/);
    assert.deepEqual(f.opsLog(), []);
    assert.equal(fs.existsSync(path.join(f.work, "state", "test.json")), false);
});

test("up creates every resource: the command ran on the host with its secret stdin, the dynamic resource and the manifest exist", async () => {
    const r = await up({ extra: true });
    assert.deepEqual(r.counts, { created: 5, updated: 0, replaced: 0, deleted: 0, unchanged: 0 });
    assert.deepEqual(f.opsLog(), ["main-create", "extra-create"]);
    assert.equal(hostFile("main.stdin"), STDIN_SECRET);
    assert.equal(hostFile("main.txt"), "note=\n");
    assert.equal(hostFile("dynamic.txt"), "one");
    assert.deepEqual(manifest(), {
        apiVersion: "v1",
        kind: "ConfigMap",
        metadata: { name: "settings", namespace: "default" },
        data: { value: "one" },
    });
    assert.deepEqual(r.outputs, { stdout: "made\n", fileValue: "one", configMapName: "settings", extraCreated: true });
    // Registration order is creation order: main before extra, which depends on it.
    const order = (JSON.parse(stateText()).resources as { name: string }[]).map((x) => x.name);
    assert.ok(order.indexOf("main") < order.indexOf("extra"));
    // Secrets are sealed in the state file, which only its owner can read.
    assert.equal(fs.statSync(path.join(f.work, "state", "test.json")).mode & 0o777, 0o600);
    assert.match(stateText(), /"ciphertext": "v1:/);
    assert.ok(!stateText().includes(STDIN_SECRET));
    assert.ok(!stateText().includes(f.sshd.privateKey.split("\n")[1]));
});

test("a second up with no change changes nothing and runs no command", async () => {
    const out = await cli("up", "--yes");
    assert.match(out, /Updating \(test\):/);
    assert.match(out, /5 unchanged/);
    assert.doesNotMatch(out, /created|updated|replaced|deleted/);
    assert.deepEqual(f.opsLog(), ["main-create", "extra-create"]);
});

test("a no-op up writes the state once and profiles its run: the provider host starts while the program loads", async () => {
    const r = await up({ extra: true });
    assert.equal(r.counts.unchanged, 5);
    const { milestones, totals } = r.profile!;
    assert.deepEqual(totals["state writes"], { count: 1, ms: totals["state writes"].ms });
    for (const m of [
        "dynamic provider host: started and configured",
        "program: SDK loaded, stack registered",
        "program: loaded, first resource registered",
        "program: exited",
        "done",
    ])
        assert.equal(typeof milestones[m], "number", m);
    assert.ok(milestones["program: SDK loaded, stack registered"] <= milestones["program: loaded, first resource registered"]);
    assert.ok(milestones["program: exited"] <= milestones.done);
    assert.deepEqual(f.opsLog(), ["main-create", "extra-create"]);
});

test("preview of a change shows the update and carries out nothing", async () => {
    const before = stateText();
    f.write({ extra: true, note: "x" });
    const r = await preview(f.options());
    seen.push(JSON.stringify(r));
    assert.deepEqual(ops(r), ["update main"]);
    assert.deepEqual(r.ops.find((o) => o.name === "main")?.keys, ["create", "update"]);
    assert.deepEqual(f.opsLog(), ["main-create", "extra-create"]);
    assert.equal(hostFile("main.txt"), "note=\n");
    assert.equal(stateText(), before);
});

test("changing an input runs the update script", async () => {
    const r = await up({ extra: true, note: "x" });
    assert.deepEqual(ops(r), ["update main"]);
    assert.equal(r.counts.updated, 1);
    assert.deepEqual(f.opsLog().slice(2), ["main-update"]);
    assert.equal(hostFile("main.txt"), "note=x\n");
});

test("changing triggers replaces: the new create runs first, the old delete after everything else", async () => {
    const r = await up({ extra: true, note: "x", trigger: "2" });
    assert.deepEqual(ops(r), ["replace main", "delete-replaced main"]);
    assert.deepEqual(r.counts, { created: 0, updated: 0, replaced: 1, deleted: 0, unchanged: 4 });
    assert.deepEqual(f.opsLog().slice(3), ["main-create", "main-delete"]);
});

test("with deleteBeforeReplace the old delete runs before the new create", async () => {
    const r = await up({ extra: true, note: "x", trigger: "3", deleteFirst: true });
    assert.deepEqual(ops(r), ["replace main"]);
    assert.deepEqual(f.opsLog().slice(5), ["main-delete", "main-create"]);
    assert.equal(hostFile("main.txt"), "note=x\n");
});

test("refresh reports drift when the dynamic resource's live state changed, and up restores it", async () => {
    const values = { extra: true, note: "x", trigger: "3", deleteFirst: true };
    let r = await refresh(f.options());
    seen.push(JSON.stringify(r));
    assert.deepEqual(r.drift, []);

    fs.writeFileSync(path.join(f.hostDir, "dynamic.txt"), "tampered");
    r = await refresh(f.options({ dryRun: true }));
    assert.deepEqual(
        r.drift.map((d) => [d.name, d.change, d.keys]),
        [["file", "changed", ["value"]]],
    );
    r = await refresh(f.options());
    seen.push(JSON.stringify(r));
    assert.deepEqual(
        r.drift.map((d) => [d.name, d.change, d.keys]),
        [["file", "changed", ["value"]]],
    );
    assert.equal(r.counts.updated, 1);
    // The state now holds the live value, so a second refresh finds nothing new.
    assert.deepEqual((await refresh(f.options())).drift, []);

    const fixed = await up(values);
    assert.deepEqual(ops(fixed), ["update file"]);
    assert.deepEqual(fixed.ops.find((o) => o.name === "file")?.keys, ["value"]);
    assert.equal(hostFile("dynamic.txt"), "one");
});

test("refresh reports a removed manifest as deleted", async () => {
    const file = path.join(f.work, "test", "manifests", "default_configmap_settings.yaml");
    const saved = fs.readFileSync(file);
    fs.rmSync(file);
    const r = await refresh(f.options({ dryRun: true }));
    assert.deepEqual(
        r.drift.map((d) => [d.name, d.change]),
        [["settings", "deleted"]],
    );
    fs.writeFileSync(file, saved);
});

test("a changed ConfigMap and dynamic value are updated in place", async () => {
    const r = await up({ extra: true, note: "x", trigger: "3", deleteFirst: true, value: "two" });
    assert.deepEqual(ops(r).sort(), ["update file", "update settings"]);
    assert.equal(manifest().data.value, "two");
    assert.equal(hostFile("dynamic.txt"), "two");
});

test("a resource moved into a component and back, with an alias to where it was, keeps its state and runs nothing", async () => {
    const settings = { extra: true, note: "x", trigger: "3", deleteFirst: true, value: "two" } as const;
    const logLength = f.opsLog().length;
    const record = () =>
        (JSON.parse(stateText()).resources as { urn: string; parent: string; id?: string }[]).find((x) => x.urn.endsWith("::extra"))!;
    const before = record();

    const into = await up({ ...settings, extraIn: "group" });
    assert.deepEqual(ops(into), ["create group"]);
    const moved = record();
    assert.equal(moved.urn, "urn:pulumi:test::offline-fixture::fixture:index:Group$command:remote:Command::extra");
    assert.equal(moved.parent, "urn:pulumi:test::offline-fixture::fixture:index:Group::group");
    assert.equal(moved.id, before.id);
    assert.equal((JSON.parse(stateText()).resources as { urn: string }[]).filter((x) => x.urn.endsWith("::extra")).length, 1);

    const back = await up(settings);
    assert.deepEqual(ops(back), ["delete group"]);
    assert.equal(record().urn, before.urn);
    assert.equal(record().id, before.id);
    assert.equal(f.opsLog().length, logLength, "no create or delete script ran");
    assert.deepEqual(ops(await up(settings)), []);
});

test("removing a resource from the program deletes it after the program finishes", async () => {
    const r = await up({ note: "x", trigger: "3", deleteFirst: true, value: "two" });
    assert.deepEqual(ops(r), ["delete extra"]);
    assert.equal(r.counts.deleted, 1);
    assert.equal(f.opsLog().at(-1), "extra-delete");
    assert.equal(r.outputs.extraCreated, false);
    assert.ok(!stateText().includes("::extra"));
});

test("destroy deletes in reverse registration order: delete scripts, dynamic delete, manifests", async () => {
    await up({ extra: true, note: "x", trigger: "3", deleteFirst: true, value: "two" });
    const registered = (JSON.parse(stateText()).resources as { name: string }[]).map((x) => x.name);
    const logLength = f.opsLog().length;
    const r = await destroy(f.options());
    seen.push(JSON.stringify(r));
    assert.equal(r.ok, true, r.error);
    assert.deepEqual(
        r.ops.map((o) => o.name),
        [...registered].reverse(),
    );
    assert.deepEqual(f.opsLog().slice(logLength), ["extra-delete", "main-delete"]);
    assert.equal(fs.existsSync(path.join(f.hostDir, "dynamic.txt")), false);
    assert.equal(fs.existsSync(path.join(f.work, "test", "manifests", "default_configmap_settings.yaml")), false);
    assert.deepEqual(JSON.parse(stateText()).resources, []);
});

test("no secret reached anything printed or returned, nor the state file in the clear", () => {
    const keyLines = f.sshd.privateKey.split("\n").filter((l) => l.length > 20 && !l.startsWith("-----"));
    assert.ok(keyLines.length > 0);
    for (const text of [...seen, stateText()]) {
        assert.ok(!text.includes(STDIN_SECRET), "stdin secret leaked");
        for (const line of keyLines) assert.ok(!text.includes(line), "private key leaked");
    }
});
