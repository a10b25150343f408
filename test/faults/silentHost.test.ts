// A host that accepts the TCP connection and then says nothing (its SSH server hung, or its
// packets lost after the handshake began): the login fails once, after the connect timeout,
// naming user@host:port, as the unreachable error the script bundle's key check does not wait on twice.
import assert from "node:assert/strict";
import * as net from "node:net";
import { after, test } from "node:test";
import { SshUnreachableError } from "../../components/ssh/errors";
import { acquireSsh, closeSshPool } from "../../components/ssh/pool";
import { sshPrivateKey } from "../../lab/harness/secretMaterial";

const held: net.Socket[] = [];
const silent = net.createServer((s) => held.push(s));

after(() => {
    closeSshPool();
    for (const s of held) s.destroy();
    silent.close();
});

test("a host that never answers the SSH handshake fails after one connect timeout, naming it", async () => {
    await new Promise<void>((done) => silent.listen(0, "127.0.0.1", done));
    const port = (silent.address() as net.AddressInfo).port;
    const t0 = Date.now();
    const err = await acquireSsh({ host: "127.0.0.1", port, user: "root", insecureIgnoreHostKey: true }, sshPrivateKey()).then(
        () => assert.fail("logged in to a silent host"),
        (e: Error) => e,
    );
    const seconds = (Date.now() - t0) / 1000;
    assert.ok(err instanceof SshUnreachableError, `${err.name}: ${err.message}`);
    assert.equal(err.message, `SSH connection to root@127.0.0.1:${port} failed: no answer within 20 s`);
    assert.ok(seconds >= 19 && seconds < 30, `${seconds} s`);
});
