// The script bundle (its NIC handover check), the tunnel type check and the guards name the SSH key's config entry
// instead of holding the key: their providers read it from their configuration and log in to a real sshd with it (this
// machine's own: the handover check's program reads this machine's network configuration); a key
// that is not configured is an error naming the config key; state written when they held the key
// itself is still read, and moving it to the named key is an update, never a replacement.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { rememberProviderConfig } from "../../components/dynamic/providerConfig";
import { tunnelTypeCheckProvider } from "../../components/compat/tunnelTypeCheck";
import { destroyGuardProvider } from "../../components/guard/destroyGuard";
import { recordHosts, sharedSsh } from "../../components/guard/record";
import { scriptBundleProvider } from "../../components/hosts/scriptBundle";
import { scriptBundle } from "../../components/hosts/scripts/bundle";
import { closeSshPool } from "../../components/ssh/pool";
import { GatewayMode } from "../../components/config/types";
import { freeLoopbackPort } from "../../lab/harness/nbServer";
import { startSshd } from "../../lab/harness/sshd";

const KEY_CONFIG = "ovn-kubernetes:sshPrivateKey";
let sshd: Awaited<ReturnType<typeof startSshd>>;
let configured: string | undefined;

before(async () => {
    sshd = await startSshd();
    await rememberProviderConfig({ config: { get: (k: string) => (k === KEY_CONFIG ? configured : undefined) } } as never);
});
after(async () => {
    closeSshPool();
    await sshd.cleanup();
});

const target = (port = sshd.port) => ({ host: "127.0.0.1", port, user: "root", hostKey: sshd.hostKeyLine, insecureIgnoreHostKey: false });
const nic = { node: "node1", interface: "ovnkac-none0", bridge: "br-none0", mode: GatewayMode.shared, role: "tunnel" as const };
const secretLine = () => sshd.privateKey.split("\n")[1];

test("the bundle's handover check logs in with the key its configuration holds, and names the config key when it holds none", async () => {
    configured = sshd.privateKey;
    const logins = await sshd.acceptedLogins();
    const inputs = { ssh: target(), nics: [nic], privateKeyConfig: KEY_CONFIG, digest: scriptBundle().digest };
    // The check is a whole program, not a command of the script bundle (none is installed here): it
    // runs, and nothing of this machine's network configuration names the NIC.
    const checked = await scriptBundleProvider.check!({}, inputs);
    assert.deepEqual(checked.failures ?? [], []);
    assert.ok((await sshd.acceptedLogins()) > logins, "logged in with the configured key");
    configured = undefined;
    closeSshPool();
    await assert.rejects(scriptBundleProvider.create!(inputs), (err: Error) => {
        assert.match(
            err.message,
            /^privateKeyConfig: the provider's configuration has no ovn-kubernetes:sshPrivateKey, the SSH key this resource logs in with/,
        );
        return true;
    });
});

test("a tunnel type check or guard recorded with the key itself moves to the named key as an update", async () => {
    const tunnels = { ssh: target(), encapType: "geneve", tunnelIps: { node1: "10.0.0.1" } };
    assert.deepEqual(
        await tunnelTypeCheckProvider.diff!(
            "tunnel-type",
            { ...tunnels, privateKey: sshd.privateKey },
            { ...tunnels, privateKeyConfig: KEY_CONFIG },
        ),
        { changes: true },
    );
    const scope = { owner: "o/s", groups: [], hosts: [{ name: "node1", ssh: target() }], centrals: ["node1"] };
    const moved = await destroyGuardProvider.diff!(
        "o/s",
        { ...scope, privateKey: sshd.privateKey },
        { ...scope, privateKeyConfig: KEY_CONFIG },
    );
    assert.deepEqual(moved, { changes: true }, "no replaces: the engine updates it");
});

test("a guard refusing a removal names the host it cannot reach, with the configured key or the recorded one, never the key, from either record", async () => {
    configured = sshd.privateKey;
    const silent = { name: "node9", ssh: target(await freeLoopbackPort()) };
    const live = { name: "node1", ssh: target() };
    const olds = { owner: "o/s", groups: [], hosts: [live, silent], centrals: ["node1"], privateKeyConfig: KEY_CONFIG };
    const news = { ...olds, hosts: [live] };
    const shared = sharedSsh(olds.hosts);
    const compact = { ...olds, sshShared: shared, hosts: recordHosts(olds.hosts, shared) };
    for (const recorded of [olds, compact, { ...olds, privateKeyConfig: undefined, privateKey: sshd.privateKey }]) {
        await assert.rejects(destroyGuardProvider.diff!("o/s", recorded, news), (err: Error) => {
            assert.match(
                err.message,
                /^removing host node9 stopped before deleting anything: 1 blocker\(s\):\n {2}- host node9: .*ECONNREFUSED/,
            );
            assert.ok(!err.message.includes(secretLine()));
            return true;
        });
    }
    // The destroy (delete): every host checked with the recorded entry's key; the reachable one is no blocker.
    await destroyGuardProvider.delete!("o/s", { ...olds, hosts: [live] });
    configured = undefined;
    await assert.rejects(
        destroyGuardProvider.delete!("o/s", olds),
        /privateKeyConfig: the provider's configuration has no ovn-kubernetes:sshPrivateKey/,
    );
});
