// @pulumi/command 1.2.1's provider facts held against the offline engine's command handler. What
// the installed SDK ships is read from it (version, plugin, the replaceOnChanges it registers);
// what only the provider's Go source says is stated once in PROVIDER_FACTS with its source, then
// the handler is driven through each fact: its diff decisions, and which script its update and
// delete run over which connection, on two real sshds.
import assert from "node:assert/strict";
import * as fs from "node:fs";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { after, before, test } from "node:test";
import * as pulumi from "@pulumi/pulumi";
import { COMMAND_REPLACE_ON, commandHandler } from "../../lab/offline/handlers/command";
import type { HandlerContext } from "../../lab/offline/handlers/types";
import type { Registration } from "../../lab/offline/monitor";
import type { StateResource } from "../../lab/offline/state";
import type { Props } from "../../lab/offline/values";
import { startSshd, type TestSshd } from "../../lab/harness/sshd";

const SDK_DIR = path.dirname(require.resolve("@pulumi/command/package.json"));

/**
 * pulumi-command v1.2.1 (github.com/pulumi/pulumi-command, tag v1.2.1):
 * - provider/pkg/provider/common/inputs.go: `Triggers … provider:"replaceOnChanges"`, no other
 *   input of remote.Command carries the tag (remote/command.go); schema.json says the same
 *   (`triggers.replaceOnChanges: true`, nothing else);
 * - remote/commandController.go Update: runs `news.Update`, else `news.Create`, with the state
 *   built from the NEW inputs (so over the new connection); Delete: runs `req.State.Delete` over
 *   the state's connection; no Delete script, nothing runs;
 * - remote/connection.go: `hostKey` is parsed by ssh.ParseAuthorizedKey and pinned with
 *   ssh.FixedHostKey before authentication.
 */
const PROVIDER_FACTS = {
    version: "1.2.1",
    replaceOnChanges: ["triggers"],
    /** Changes of these inputs are updates, never replacements. */
    updateOn: ["connection", "create", "update", "delete", "stdin", "environment", "logging", "addPreviousOutputInEnv"],
    updateRuns: "update, else create, over the new connection",
    deleteRuns: "the state's delete over the state's connection",
} as const;

let a: TestSshd;
let b: TestSshd;
let dir: string;
const ctx: HandlerContext = {
    project: "p",
    stack: "s",
    projectDir: "/",
    manifestsDir: "/",
    config: {},
    hostKeys: { pins: {}, insecure: false },
};
const handler = commandHandler(ctx);

before(async () => {
    [a, b] = await Promise.all([startSshd(), startSshd()]);
    dir = mkdtempSync(path.join(tmpdir(), "command-provider-"));
});
after(async () => {
    await Promise.all([a?.cleanup(), b?.cleanup()]);
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

const connectionOf = (s: TestSshd, over: Record<string, unknown> = {}) => ({
    host: s.host,
    port: s.port,
    user: s.user,
    privateKey: s.privateKey,
    hostKey: s.hostKeyLine,
    ...over,
});
/** A script that records, in `<dir>/<mark>`, the port of the sshd it ran under. */
const marking = (mark: string) => `echo "$SSH_CONNECTION" | cut -d' ' -f4 > ${dir}/${mark}`;
const ranOn = (mark: string) =>
    fs.existsSync(path.join(dir, mark)) ? Number(fs.readFileSync(path.join(dir, mark), "utf8").trim()) : undefined;
const state = (outputs: Props): StateResource => ({
    urn: "urn:cmd",
    type: "command:remote:Command",
    name: "cmd",
    parent: "",
    custom: true,
    id: "cmd1",
    inputs: outputs,
    outputs,
    dependencies: [],
});
const reg = { name: "cmd" } as Registration;
const clearMarks = () => fs.readdirSync(dir).forEach((f) => fs.rmSync(path.join(dir, f)));

test("the installed SDK is 1.2.1, asks for a plugin version the provider really tagged, and ships connection.hostKey", () => {
    const pkg = JSON.parse(fs.readFileSync(path.join(SDK_DIR, "package.json"), "utf8"));
    assert.equal(pkg.version, PROVIDER_FACTS.version);
    assert.match(pkg.scripts.install, new RegExp(`resource command v?${PROVIDER_FACTS.version.replace(/\./g, "\\.")}$`));
    assert.match(fs.readFileSync(path.join(SDK_DIR, "types", "input.d.ts"), "utf8"), /hostKey\?: pulumi\.Input<string>;/);
});

test("the SDK registers remote.Command with the provider's replace-on-change inputs and a secret connection", async () => {
    await pulumi.runtime.setMocks({ newResource: (r) => ({ id: `${r.name}-id`, state: r.inputs }), call: () => ({}) }, "p", "s", false);
    const monitor = pulumi.runtime.getMonitor() as unknown as { registerResource: (req: any, cb: any) => unknown };
    const seen: Array<{ type: string; replaceOnChanges: string[]; secretOutputs: string[] }> = [];
    const original = monitor.registerResource.bind(monitor);
    monitor.registerResource = (req: any, cb: any) => {
        seen.push({
            type: req.getType(),
            replaceOnChanges: req.getReplaceonchangesList(),
            secretOutputs: req.getAdditionalsecretoutputsList(),
        });
        return original(req, cb);
    };
    const { remote } = await import("@pulumi/command");
    const cmd = new remote.Command("probe", { connection: { host: "192.0.2.1" }, create: "true" });
    await new Promise<void>((resolve) => cmd.urn.apply(() => resolve()));
    const registered = seen.find((s) => s.type === "command:remote:Command");
    assert.ok(registered, "remote.Command was not registered");
    // "triggers[*]": any element of triggers; its top-level input is the one the handler replaces on.
    assert.deepEqual([...new Set(registered.replaceOnChanges.map((p) => p.replace(/\[.*$/, "")))], [...PROVIDER_FACTS.replaceOnChanges]);
    assert.deepEqual(COMMAND_REPLACE_ON, [...PROVIDER_FACTS.replaceOnChanges]);
    assert.deepEqual(registered.secretOutputs, ["connection"]);
});

test("diff: a change of triggers replaces; a change of any other input, the connection included, updates", async () => {
    const base: Props = {
        connection: connectionOf(a),
        create: "c",
        update: "u",
        delete: "d",
        stdin: "x",
        environment: { A: "1" },
        triggers: ["1"],
    };
    const changes: Record<string, unknown> = {
        triggers: ["2"],
        connection: connectionOf(a, { privateKey: b.privateKey }),
        create: "c2",
        update: "u2",
        delete: "d2",
        stdin: "y",
        environment: { A: "2" },
        logging: "none",
        addPreviousOutputInEnv: false,
    };
    for (const key of [...PROVIDER_FACTS.replaceOnChanges, ...PROVIDER_FACTS.updateOn]) {
        const d = await handler.diff(state(base), { ...base, [key]: changes[key] }, reg);
        assert.deepEqual(d.keys, [key], key);
        const replaces = (PROVIDER_FACTS.replaceOnChanges as readonly string[]).includes(key);
        assert.deepEqual(d.replaceKeys, replaces ? [key] : [], `${key}: ${replaces ? "replace" : "update"}`);
        assert.equal(d.deleteBeforeReplace, false, `${key}: the provider never asks for delete-before-replace`);
    }
    for (const field of ["user", "port", "hostKey"]) {
        const d = await handler.diff(state(base), { ...base, connection: connectionOf(a, { [field]: "other" }) }, reg);
        assert.deepEqual([d.keys, d.replaceKeys], [["connection"], []], `connection.${field}`);
    }
    assert.equal((await handler.diff(state(base), { ...base }, reg)).changes, false);
});

test(`update runs ${PROVIDER_FACTS.updateRuns}`, async () => {
    clearMarks();
    const old = state({
        connection: connectionOf(a),
        create: marking("create"),
        update: marking("update"),
        delete: marking("delete"),
        stdout: "before",
    });
    await handler.update(old, { ...old.inputs, connection: connectionOf(b) }, reg);
    assert.deepEqual([ranOn("update"), ranOn("create"), ranOn("delete")], [b.port, undefined, undefined]);

    clearMarks();
    const noUpdate = state({ connection: connectionOf(a), create: marking("create"), delete: marking("delete"), stdout: "before" });
    await handler.update(noUpdate, { ...noUpdate.inputs, connection: connectionOf(b) }, reg);
    assert.deepEqual([ranOn("create"), ranOn("delete")], [b.port, undefined]);

    // Neither script: nothing runs and the recorded output stays, as the provider keeps BaseOutputs.
    const none = state({ connection: connectionOf(a), stdout: "before", stderr: "" });
    assert.equal((await handler.update(none, { connection: connectionOf(b) }, reg)).stdout, "before");
});

test(`delete runs ${PROVIDER_FACTS.deleteRuns}`, async () => {
    clearMarks();
    await handler.delete(state({ connection: connectionOf(a), create: marking("create"), delete: marking("delete") }));
    assert.deepEqual([ranOn("delete"), ranOn("create")], [a.port, undefined]);
});

test("the connection's host key is verified before login: update and delete refuse a host presenting another key, nothing runs", async () => {
    clearMarks();
    const loginsBefore = await a.acceptedLogins();
    const wrongPin = connectionOf(a, { hostKey: b.hostKeyLine });
    const old = state({ connection: wrongPin, create: marking("create"), delete: marking("delete") });
    await assert.rejects(
        handler.update(old, old.inputs, reg),
        new RegExp(
            `^Error: create: after 9 failed attempts: host key mismatch for 127\\.0\\.0\\.1:${a.port}: it presented ${a.hostKeyFingerprint.replace(/[+/]/g, "\\$&")}`,
        ),
    );
    await assert.rejects(handler.delete(old), /^Error: delete: after 9 failed attempts: host key mismatch/);
    await assert.rejects(
        handler.delete(state({ connection: connectionOf(a, { hostKey: "SHA256:" + "A".repeat(43) }), delete: marking("delete") })),
        /failed to parse connection\.hostKey/,
    );
    assert.equal(await a.acceptedLogins(), loginsBefore);
    assert.deepEqual(fs.readdirSync(dir), []);
});
