// A host command built by the project's hostCommand, carried out by the offline engine against a
// real sshd, as @pulumi/command 1.2.1 carries it out: a rotated SSH key is an update that re-runs
// create and tears nothing down; a new trigger replaces delete-first, so the old delete never undoes
// the new create; a host presenting another key than the one recorded is refused by up and by
// destroy before any login.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { after, before, test } from "node:test";
import YAML from "yaml";
import { PassphraseSecrets } from "../../lab/offline/passphraseSecrets";
import { apply, destroy, type OfflineOptions, type OperationResult } from "../../lab/offline/api";
import { startSshd, type TestSshd } from "../../lab/harness/sshd";

const PROJECT = "host-command-fixture";
const PASSPHRASE = "host command test passphrase";

let sshd: TestSshd;
let work: string;
let hostDir: string;
let options: OfflineOptions;
const secrets = PassphraseSecrets.create(PASSPHRASE);

/** The stack as an operator writes it: the connection, its pinned host key, the command's generation. */
function writeStack(values: { privateKey: string; hostKey: string; generation: string }) {
    const p = (key: string) => `${PROJECT}:${key}`;
    const config = {
        [p("dir")]: hostDir,
        [p("host")]: sshd.host,
        [p("port")]: sshd.port,
        [p("user")]: sshd.user,
        [p("privateKey")]: { secure: secrets.encrypt(values.privateKey) },
        [p("hostKey")]: values.hostKey,
        [p("generation")]: values.generation,
    };
    fs.writeFileSync(options.stackFile!, YAML.stringify({ encryptionsalt: secrets.encryptionSalt, config }));
}

const opsLog = () => fs.readFileSync(path.join(hostDir, "ops.log"), "utf8").trim().split("\n");
const hostState = () => fs.readFileSync(path.join(hostDir, "state"), "utf8").trim();
const changed = (r: OperationResult) => r.ops.filter((o) => o.op !== "same").map((o) => `${o.op} ${o.name}`);
const keygen = (file: string) => {
    // ssh-keygen asks before overwriting, and nobody is there to answer.
    for (const f of [file, `${file}.pub`]) fs.rmSync(f, { force: true });
    execFileSync("ssh-keygen", ["-q", "-t", "ed25519", "-N", "", "-C", "", "-f", file]);
};
const fingerprintOf = (pubFile: string) =>
    execFileSync("ssh-keygen", ["-l", "-E", "sha256", "-f", pubFile], { encoding: "utf8" }).split(" ")[1];

before(async () => {
    sshd = await startSshd();
    work = fs.mkdtempSync(path.join(tmpdir(), "host-command-"));
    hostDir = path.join(work, "host");
    fs.mkdirSync(hostDir);
    options = {
        stack: "test",
        projectDir: path.join(__dirname, "hostCommandFixture"),
        stackFile: path.join(work, "Pulumi.test.yaml"),
        localDir: work,
        passphrase: PASSPHRASE,
    };
});
after(async () => {
    await sshd?.cleanup();
    if (work) fs.rmSync(work, { recursive: true, force: true });
});

let privateKey: string;

test("up creates the command over the pinned connection", async () => {
    privateKey = sshd.privateKey;
    writeStack({ privateKey, hostKey: sshd.hostKeyLine, generation: "1" });
    const r = await apply(options);
    assert.equal(r.ok, true, r.error);
    assert.deepEqual(opsLog(), ["create-1"]);
    assert.equal(hostState(), "1");
});

test("a rotated SSH key (the new key authorized first) updates the command: create runs again with the new key, nothing is deleted", async () => {
    const newKey = path.join(work, "id_new");
    keygen(newKey);
    const oldAuthorized = fs.readFileSync(path.join(sshd.dir, "authorized_keys"), "utf8");
    fs.appendFileSync(path.join(sshd.dir, "authorized_keys"), fs.readFileSync(`${newKey}.pub`));
    privateKey = fs.readFileSync(newKey, "utf8");
    writeStack({ privateKey, hostKey: sshd.hostKeyLine, generation: "1" });

    const r = await apply(options);
    assert.equal(r.ok, true, r.error);
    assert.deepEqual(changed(r), ["update host-state"]);
    assert.deepEqual(r.ops.find((o) => o.name === "host-state")?.keys, ["connection"]);
    assert.deepEqual(opsLog(), ["create-1", "create-1"]);
    assert.equal(hostState(), "1");
    assert.match(
        fs.readFileSync(sshd.logFile, "utf8"),
        new RegExp(`Accepted publickey for root .* ED25519 ${fingerprintOf(`${newKey}.pub`).replace(/[+/]/g, "\\$&")}`),
    );

    // The old key withdrawn: the state already holds the new one, so the next up has nothing to do.
    fs.writeFileSync(path.join(sshd.dir, "authorized_keys"), fs.readFileSync(`${newKey}.pub`));
    assert.notEqual(oldAuthorized, fs.readFileSync(path.join(sshd.dir, "authorized_keys"), "utf8"));
    const again = await apply(options);
    assert.equal(again.ok, true, again.error);
    assert.deepEqual(changed(again), []);
    assert.deepEqual(opsLog(), ["create-1", "create-1"]);
});

test("a new trigger replaces delete-first: the host ends in the new generation, not torn down by the old delete", async () => {
    writeStack({ privateKey, hostKey: sshd.hostKeyLine, generation: "2" });
    const r = await apply(options);
    assert.equal(r.ok, true, r.error);
    assert.deepEqual(changed(r), ["replace host-state"]);
    assert.deepEqual(opsLog().slice(2), ["delete-1", "create-2"]);
    assert.equal(hostState(), "2");
    assert.equal(r.outputs.stdout, "made 2\n");
});

test("a host presenting another key than the pin: up refuses before login, destroy refuses with the key in state, nothing runs", async () => {
    // The host's key changes behind the stack's back (a reinstalled or impersonated host).
    await sshd.stop();
    keygen(path.join(sshd.dir, "ssh_host_ed25519_key"));
    await sshd.start();
    const presented = fingerprintOf(path.join(sshd.dir, "ssh_host_ed25519_key.pub"));
    const logins = await sshd.acceptedLogins();
    const log = opsLog();

    writeStack({ privateKey, hostKey: sshd.hostKeyLine, generation: "3" });
    const up = await apply(options);
    assert.equal(up.ok, false);
    assert.match(
        up.error ?? "",
        new RegExp(
            `host-state: delete: after 9 failed attempts: host key mismatch for 127\\.0\\.0\\.1:${sshd.port}: it presented ${presented.replace(/[+/]/g, "\\$&")}`,
        ),
    );

    const down = await destroy(options);
    assert.equal(down.ok, false);
    assert.match(down.error ?? "", /host-state: delete: after 9 failed attempts: host key mismatch/);

    assert.equal(await sshd.acceptedLogins(), logins);
    assert.deepEqual(opsLog(), log);
    assert.equal(hostState(), "2");
});
