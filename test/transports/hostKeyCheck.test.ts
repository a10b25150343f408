// The host-key gate in front of @pulumi/command: the probe reads the real sshd's key, and the
// provider's check (run at every preview and update) refuses a host whose key is not the pin.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { hostKeyProvider, probeHostKey } from "../../packages/cluster/ssh/hostKeyCheck";
import { startSshd } from "../support/sshd";

let sshd: Awaited<ReturnType<typeof startSshd>>;
before(async () => (sshd = await startSshd()));
after(() => sshd.cleanup());

const target = (hostKey?: string) => ({ host: "127.0.0.1", port: sshd.port, user: "root", hostKey, insecureIgnoreHostKey: false });

test("the probe sees the fingerprint ssh-keygen reports, without logging in", async () => {
    assert.equal(await probeHostKey(target()), sshd.hostKeyFingerprint);
    assert.equal(await sshd.acceptedLogins(), 0);
});

test("check accepts the pinned key (as a key line or a fingerprint)", async () => {
    for (const pin of [sshd.hostKeyLine, sshd.hostKeyFingerprint]) {
        const r = await hostKeyProvider.check!({}, { ssh: target(pin) });
        assert.deepEqual(r.failures ?? [], [], pin);
    }
});

test("check refuses a wrong or missing pin, naming host, port and the presented key", async () => {
    const wrong = "SHA256:" + "A".repeat(43);
    const r = await hostKeyProvider.check!({}, { ssh: target(wrong) });
    assert.equal(r.failures?.length, 1);
    assert.equal(r.failures![0].property, "ssh");
    assert.match(r.failures![0].reason, new RegExp(`host key mismatch for 127\\.0\\.0\\.1:${sshd.port}: it presented ${sshd.hostKeyFingerprint.replace(/[+/]/g, "\\$&")}`));
    const missing = await hostKeyProvider.check!({}, { ssh: target() });
    assert.match(missing.failures![0].reason, /no host key pinned/);
});

test("check reports an unreachable host as a failure of the ssh property", async () => {
    await sshd.stop();
    const r = await hostKeyProvider.check!({}, { ssh: target(sshd.hostKeyLine) });
    assert.match(r.failures![0].reason, /SSH to 127\.0\.0\.1:\d+: .*ECONNREFUSED/);
    await sshd.start();
});
