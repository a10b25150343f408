import assert from "node:assert/strict";
import { test } from "node:test";
import { IncorrectPassphraseError, PassphraseSecrets } from "../../lab/offline/passphraseSecrets";

test("a secret encrypted under a new salt decrypts after reopening the salt with the same passphrase", () => {
    const created = PassphraseSecrets.create("correct horse");
    assert.match(created.encryptionSalt, /^v1:[A-Za-z0-9+/]{11}=:v1:[A-Za-z0-9+/]{16}:[A-Za-z0-9+/=]+$/);
    const secure = created.encrypt("-----BEGIN OPENSSH PRIVATE KEY-----\nabc\n");
    assert.match(secure, /^v1:[A-Za-z0-9+/]{16}:[A-Za-z0-9+/=]+$/);
    const reopened = PassphraseSecrets.open("correct horse", created.encryptionSalt);
    assert.equal(reopened.decrypt(secure), "-----BEGIN OPENSSH PRIVATE KEY-----\nabc\n");
    // A fresh nonce each time: the same plaintext never gives the same ciphertext.
    assert.notEqual(created.encrypt("x"), created.encrypt("x"));
});

test("a wrong passphrase is rejected when the salt is opened", () => {
    const created = PassphraseSecrets.create("right");
    assert.throws(() => PassphraseSecrets.open("wrong", created.encryptionSalt), IncorrectPassphraseError);
});

test("a value encrypted for another stack (other key) does not decrypt", () => {
    const a = PassphraseSecrets.create("same");
    const b = PassphraseSecrets.create("same"); // other salt, so other key
    assert.throws(() => b.decrypt(a.encrypt("secret")), IncorrectPassphraseError);
});

test("the state from Pulumi's own passphrase manager tests opens with its passphrase and not with another", () => {
    // pulumi/pulumi pkg/secrets/passphrase/manager_test.go: this state belongs to the passphrase "password".
    const state = "v1:fozI5u6B030=:v1:F+6ZduKKd8G0/V7L:PGMFeIzwobWRKmEAzUdaQHqC5mMRIQ==";
    const secrets = PassphraseSecrets.open("password", state);
    assert.equal(secrets.decrypt(state.slice(state.indexOf(":v1:") + 1)), "pulumi");
    assert.throws(() => PassphraseSecrets.open("password123", state), IncorrectPassphraseError);
});

test("malformed values are refused with a reason", () => {
    const s = PassphraseSecrets.create("p");
    assert.throws(() => s.decrypt("v2:AAAA:AAAA"), /unknown version/);
    assert.throws(() => s.decrypt("v1:onlytwo"), /expected v1:<nonce>:<ciphertext>/);
    assert.throws(() => s.decrypt("v1:AAAA:AAAAAAAAAAAAAAAAAAAAAA=="), /nonce size/);
    assert.throws(() => PassphraseSecrets.open("p", "fozI5u6B030=:v1:F+6ZduL:PGMF"), /bad encryptionsalt/);
});
