// SSH against a real OpenSSH server on loopback: commands, quoting, host key pinning, one pooled
// connection shared by parallel callers, and reconnecting after the server went away.
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { closeSshPool, exec, shellCommand, shellQuote, SshError, SshHostKeyError, sshPoolStats } from "../../components/ssh";
import { waitUntil } from "../../lab/harness/nbServer";
import { startSshd, type TestSshd } from "../../lab/harness/sshd";

/** No line of the private key may appear in an error message. */
function assertNoKeyMaterial(message: string, privateKey: string): void {
    for (const line of privateKey.split("\n"))
        if (line.trim().length >= 16) assert.ok(!message.includes(line.trim()), "key material in message");
}

describe("exec over the pooled SSH connection", () => {
    let sshd: TestSshd;
    let other: TestSshd;
    before(async () => {
        [sshd, other] = await Promise.all([startSshd({ maxSessions: 10 }), startSshd()]);
    });
    after(async () => {
        closeSshPool();
        await Promise.all([sshd?.cleanup(), other?.cleanup()]);
    });

    it("returns exit code, stdout and stderr, and feeds stdin", async () => {
        const result = await exec(sshd.target(), sshd.privateKey, "cat; echo out; echo err >&2; exit 3", { stdin: "in\n" });
        assert.deepEqual(result, { code: 3, stdout: "in\nout\n", stderr: "err\n" });
        assert.equal((await exec(sshd.target(), sshd.privateKey, "id -un")).stdout, "root\n");
    });

    it("passes quoted values through the remote shell unchanged", async () => {
        const values = ["plain", "with space", "it's", '"$(touch /tmp/pwned)" `x` $HOME', "a\nb", "*", "--", ""];
        const result = await exec(sshd.target(), sshd.privateKey, shellCommand(["printf", "%s\\0", ...values]));
        assert.deepEqual(result.stdout.split("\0").slice(0, -1), values);
        assert.equal(shellQuote("ovn_cluster_router"), "'ovn_cluster_router'");
        assert.throws(() => shellQuote("a\0b"), /NUL/);
    });

    it("accepts the host key pinned as an OpenSSH line or as a fingerprint", async () => {
        closeSshPool();
        await exec(sshd.target({ hostKey: sshd.hostKeyFingerprint }), sshd.privateKey, "true");
        closeSshPool();
        await exec(sshd.target({ hostKey: sshd.hostKeyLine }), sshd.privateKey, "true");
    });

    it("refuses a wrong host key, naming host:port and the presented fingerprint, without key material", async () => {
        const wrong = other.target({ hostKey: sshd.hostKeyLine }); // sshd's key pinned for the other server
        await assert.rejects(exec(wrong, other.privateKey, "true"), (err: unknown) => {
            assert.ok(err instanceof SshHostKeyError, String(err));
            assert.equal(err.presented, other.hostKeyFingerprint);
            assert.ok(err.message.includes(`127.0.0.1:${other.port}`), err.message);
            assert.ok(err.message.includes(other.hostKeyFingerprint), err.message);
            assert.ok(err.message.includes(sshd.hostKeyFingerprint), err.message);
            assertNoKeyMaterial(err.message, other.privateKey);
            return true;
        });
        assert.equal(await other.acceptedLogins(), 0);
    });

    it("refuses a missing pin unless insecureIgnoreHostKey is set", async () => {
        await assert.rejects(exec(other.target({ hostKey: undefined }), other.privateKey, "true"), (err: unknown) => {
            return (
                err instanceof SshHostKeyError &&
                err.message.includes("no host key pinned") &&
                err.message.includes(other.hostKeyFingerprint)
            );
        });
        const insecure = other.target({ hostKey: undefined, insecureIgnoreHostKey: true });
        assert.equal((await exec(insecure, other.privateKey, "echo ok")).stdout, "ok\n");
        // The connection is now pooled; a caller pinning another key is still refused.
        await assert.rejects(exec(other.target({ hostKey: sshd.hostKeyFingerprint }), other.privateKey, "true"), SshHostKeyError);
        assert.equal(await other.acceptedLogins(), 1);
    });

    it("reports a refused login without key material", async () => {
        closeSshPool();
        await assert.rejects(exec(sshd.target(), other.privateKey, "true"), (err: unknown) => {
            assert.ok(err instanceof SshError && !(err instanceof SshHostKeyError), String(err));
            assert.match(err.message, /root@127\.0\.0\.1:\d+ failed: All configured authentication methods failed/);
            assertNoKeyMaterial(err.message, other.privateKey);
            return true;
        });
    });

    it("reports an unusable private key without quoting it", async () => {
        const garbage =
            "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAAthisIsNotAValidKeyAtAllXXXXXXXX\n-----END OPENSSH PRIVATE KEY-----\n";
        await assert.rejects(exec(sshd.target(), garbage, "true"), (err: unknown) => {
            assert.ok(err instanceof SshError, String(err));
            assert.match(err.message, /^SSH connection to root@127\.0\.0\.1:\d+ failed: /);
            assertNoKeyMaterial(err.message, garbage);
            return true;
        });
    });

    it("runs 50 parallel commands over one connection within sshd's MaxSessions", async () => {
        closeSshPool();
        const loginsBefore = await sshd.acceptedLogins();
        const connectsBefore = sshPoolStats().connects;
        const results = await Promise.all(Array.from({ length: 50 }, (_, i) => exec(sshd.target(), sshd.privateKey, `echo ${i}`)));
        assert.deepEqual(
            results.map((r) => r.stdout),
            Array.from({ length: 50 }, (_, i) => `${i}\n`),
        );
        assert.equal((await sshd.acceptedLogins()) - loginsBefore, 1);
        assert.equal(sshPoolStats().connects - connectsBefore, 1);
    });

    it("waits for a session when the server allows fewer than the pool opens, and runs every command on one connection", async () => {
        const strict = await startSshd({ maxSessions: 3 });
        try {
            const results = await Promise.all(
                Array.from({ length: 20 }, (_, i) => exec(strict.target(), strict.privateKey, `sleep 0.2; echo ${i}`)),
            );
            assert.deepEqual(
                results.map((r) => r.stdout),
                Array.from({ length: 20 }, (_, i) => `${i}\n`),
            );
            assert.equal(await strict.acceptedLogins(), 1);
        } finally {
            await strict.cleanup();
        }
    });

    it("fails clearly when the server goes away mid-command, and reconnects once it is back", async () => {
        const marker = join(sshd.dir, "started");
        const running = exec(sshd.target(), sshd.privateKey, `touch ${shellQuote(marker)}; sleep 60`);
        const lost = assert.rejects(
            running,
            (err: unknown) => err instanceof SshError && /connection lost while running touch/.test(err.message),
        );
        await waitUntil("the remote command to start", () => existsSync(marker));
        await sshd.stop();
        await lost;
        await assert.rejects(exec(sshd.target(), sshd.privateKey, "true"), (err: unknown) => {
            return err instanceof SshError && /SSH connection to root@127\.0\.0\.1:\d+ failed: connect ECONNREFUSED/.test(err.message);
        });
        await sshd.start();
        const loginsBefore = await sshd.acceptedLogins();
        assert.equal((await exec(sshd.target(), sshd.privateKey, "echo back")).stdout, "back\n");
        assert.equal((await sshd.acceptedLogins()) - loginsBefore, 1);
    });

    it("reconnects when the pooled connection died unnoticed between calls", async () => {
        await exec(sshd.target(), sshd.privateKey, "true");
        await sshd.stop();
        await sshd.start();
        assert.equal((await exec(sshd.target(), sshd.privateKey, "echo again")).stdout, "again\n");
    });
});
