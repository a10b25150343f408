// The host-key gate in front of @pulumi/command: the probe reads the real sshd's key, and the
// script bundle's check (run at every preview and update) refuses a host whose key is not the pin.
// With the SSH key's config entry named, the check logs in through the connection pool, which the
// host's other checks then reuse.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { rememberProviderConfig } from "../../components/dynamic/providerConfig";
import { exec } from "../../components/ssh/exec";
import { scriptBundleProvider } from "../../components/hosts/scriptBundle";
import { probeHostKey } from "../../components/ssh/hostKeyCheck";
import { closeSshPool, sshPoolStats } from "../../components/ssh/pool";
import { startSshd } from "../../lab/harness/sshd";

let sshd: Awaited<ReturnType<typeof startSshd>>;
before(async () => (sshd = await startSshd()));
after(async () => {
    closeSshPool();
    await sshd.cleanup();
});

const target = (hostKey?: string) => ({ host: "127.0.0.1", port: sshd.port, user: "root", hostKey, insecureIgnoreHostKey: false });

test("the probe sees the fingerprint ssh-keygen reports, without logging in", async () => {
    assert.equal(await probeHostKey(target()), sshd.hostKeyFingerprint);
    assert.equal(await sshd.acceptedLogins(), 0);
});

test("check accepts the pinned key (as a key line or a fingerprint)", async () => {
    for (const pin of [sshd.hostKeyLine, sshd.hostKeyFingerprint]) {
        const r = await scriptBundleProvider.check!({}, { ssh: target(pin) });
        assert.deepEqual(r.failures ?? [], [], pin);
    }
});

test("check refuses a wrong or missing pin, naming host, port and the presented key", async () => {
    const wrong = "SHA256:" + "A".repeat(43);
    const r = await scriptBundleProvider.check!({}, { ssh: target(wrong) });
    assert.equal(r.failures?.length, 1);
    assert.equal(r.failures![0].property, "ssh");
    assert.match(
        r.failures![0].reason,
        new RegExp(`host key mismatch for 127\\.0\\.0\\.1:${sshd.port}: it presented ${sshd.hostKeyFingerprint.replace(/[+/]/g, "\\$&")}`),
    );
    const missing = await scriptBundleProvider.check!({}, { ssh: target() });
    assert.match(missing.failures![0].reason, /no host key pinned/);
});

test("check reports an unreachable host as a failure of the ssh property", async () => {
    await sshd.stop();
    const r = await scriptBundleProvider.check!({}, { ssh: target(sshd.hostKeyLine) });
    assert.match(r.failures![0].reason, /SSH to 127\.0\.0\.1:\d+: .*ECONNREFUSED/);
    await sshd.start();
});

const KEY_CONFIG = "ovn-kubernetes:sshPrivateKey";

test("with the key's config entry named, check logs in once through the pool and the host's next command reuses that login", async () => {
    await rememberProviderConfig({ config: { get: (k: string) => (k === KEY_CONFIG ? sshd.privateKey : undefined) } } as never);
    closeSshPool();
    const connects = sshPoolStats().connects;
    const logins = await sshd.acceptedLogins();
    const r = await scriptBundleProvider.check!({}, { ssh: target(sshd.hostKeyLine), privateKeyConfig: KEY_CONFIG });
    assert.deepEqual(r.failures ?? [], []);
    const afterCheck = { connects: sshPoolStats().connects - connects, logins: (await sshd.acceptedLogins()) - logins };
    assert.deepEqual(afterCheck, { connects: 1, logins: 1 }, "the check logged in through the pool");
    assert.equal((await exec(target(sshd.hostKeyLine), sshd.privateKey, "echo reused")).stdout, "reused\n");
    assert.deepEqual({ connects: sshPoolStats().connects - connects, logins: (await sshd.acceptedLogins()) - logins }, afterCheck);
});

test("with the key named, a wrong pin is refused in the probe's words before any login; a key not configured falls back to the probe", async () => {
    closeSshPool();
    const logins = await sshd.acceptedLogins();
    const wrong = await scriptBundleProvider.check!({}, { ssh: target("SHA256:" + "A".repeat(43)), privateKeyConfig: KEY_CONFIG });
    assert.match(
        wrong.failures![0].reason,
        new RegExp(`host key mismatch for 127\\.0\\.0\\.1:${sshd.port}: it presented ${sshd.hostKeyFingerprint.replace(/[+/]/g, "\\$&")}`),
    );
    const unset = await scriptBundleProvider.check!({}, { ssh: target(sshd.hostKeyLine), privateKeyConfig: "ovn-kubernetes:notSet" });
    assert.deepEqual(unset.failures ?? [], []);
    assert.equal(await sshd.acceptedLogins(), logins);
});
