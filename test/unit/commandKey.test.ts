// The private key in @pulumi/command's connection: an ed25519 key goes in as its PKCS#8 form (the
// same key, a third of the size), and back to OpenSSH's format for ssh2 and OpenSSH's own tools;
// other keys pass unchanged.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { createPrivateKey, createPublicKey } from "node:crypto";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { test } from "node:test";
import { utils } from "ssh2";
import { commandPrivateKey, ssh2PrivateKey } from "../../components/ssh/commandKey";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "command-key-"));
process.on("exit", () => fs.rmSync(dir, { recursive: true, force: true }));

/** A key pair as ssh-keygen writes it: [private key, public key line]. */
function keygen(name: string, ...args: string[]): [string, string] {
    const file = path.join(dir, name);
    execFileSync("ssh-keygen", ["-q", "-C", "admin@workstation", "-f", file, ...args]);
    return [fs.readFileSync(file, "utf8"), fs.readFileSync(`${file}.pub`, "utf8").split(" ").slice(0, 2).join(" ")];
}

/** The public key line OpenSSH derives from a private key file. */
function publicOf(name: string, key: string): string {
    const file = path.join(dir, name);
    fs.writeFileSync(file, key, { mode: 0o600 });
    return execFileSync("ssh-keygen", ["-y", "-f", file], { encoding: "utf8" }).trim();
}

test("an ed25519 key becomes its PKCS#8 PEM: the same key, under 120 characters", () => {
    const [key, pub] = keygen("ed", "-t", "ed25519", "-N", "");
    const compact = commandPrivateKey(key);
    assert.match(compact, /^-----BEGIN PRIVATE KEY-----\n[A-Za-z0-9+/=]+\n-----END PRIVATE KEY-----\n?$/);
    assert.ok(compact.length < 120 && key.length > 380, `${key.length} → ${compact.length}`);
    const raw = createPublicKey(createPrivateKey(compact)).export({ format: "jwk" }).x!;
    const blob = Buffer.from(pub.split(" ")[1], "base64");
    assert.equal(Buffer.from(raw, "base64url").toString("hex"), blob.subarray(blob.length - 32).toString("hex"));
});

test("back in OpenSSH's format, ssh2 signs with it and ssh-keygen derives the original public key", () => {
    const [key, pub] = keygen("ed2", "-t", "ed25519", "-N", "");
    const openssh = ssh2PrivateKey(commandPrivateKey(key));
    assert.match(openssh, /^-----BEGIN OPENSSH PRIVATE KEY-----\n/);
    assert.equal(publicOf("ed2-back", openssh), pub);
    const parsed = utils.parseKey(openssh);
    const original = utils.parseKey(key);
    assert.ok(!(parsed instanceof Error) && !Array.isArray(parsed) && !(original instanceof Error) && !Array.isArray(original));
    const data = Buffer.from("session identifier");
    assert.equal(original.verify(data, parsed.sign(data)), true);
});

test("RSA and passphrase-protected keys pass unchanged, both ways", () => {
    const [rsa] = keygen("rsa", "-t", "rsa", "-b", "2048", "-N", "");
    const [locked] = keygen("locked", "-t", "ed25519", "-N", "a passphrase");
    for (const key of [rsa, locked]) {
        assert.equal(commandPrivateKey(key), key);
        assert.equal(ssh2PrivateKey(key), key);
    }
});
