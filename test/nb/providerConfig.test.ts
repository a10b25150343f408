// The NB providers take the SSH key from their configuration (the stack config the engine gives
// the provider host), named by the connection's privateKeyConfig: driven through the SDK's
// dynamic-provider host against a real NB behind a real sshd. A host without that key fails
// naming the config key before NB is touched; state written with the key in it logs in with that
// key and its next `up` is an in-place update that drops it; the two ways are one or the other.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { track, up, destroy, refresh, CheckFailed, type Tracked } from "../../lab/harness/engine";
import { devModel, findColumn, KEY_CONFIG, OWNER, startEnv, type NbEnv } from "../../lab/harness/env";
import { startProviderHost, type ProviderHost } from "../../lab/harness/providerHost";
import { registerUnderMocks, type Registered } from "../../lab/harness/serializedProviders";

const model = devModel();

describe("the SSH key of the NB providers", () => {
    let env: NbEnv;
    let registered: Registered[];
    let configured: ProviderHost;
    let unconfigured: ProviderHost;
    const router = (): Tracked => track(registered.find((r) => r.name === "cluster-router")!);
    const keyLine = () => env.sshd.privateKey.split("\n")[1];

    before(async () => {
        env = await startEnv();
        registered = await registerUnderMocks({ model, owner: OWNER, nb: env.configured(), gatewayHost: {} });
        [configured, unconfigured] = await Promise.all([startProviderHost(env.providerConfig), startProviderHost({})]);
    });
    after(async () => {
        await Promise.all([configured?.stop(), unconfigured?.stop()]);
        await env?.cleanup();
    });

    it("a provider host whose configuration lacks the key fails naming the config key, and writes nothing", async () => {
        await assert.rejects(up(unconfigured, router()), (err: Error) => {
            assert.match(err.message, /nb\.privateKeyConfig: the provider's configuration has no ovn-kubernetes:sshPrivateKey/);
            assert.match(err.message, /pulumi config set --secret ovn-kubernetes:sshPrivateKey/);
            return true;
        });
        assert.deepEqual(await findColumn(env.nb, "Logical_Router", "name"), []);
    });

    it("state that carries the key logs in with it, and its next up is an update that leaves the key out", async () => {
        const t = router();
        const withKey = { ...t.registered, nb: env.connection() };
        // Written by code that kept the key in the resource; refreshed by a host that has none configured.
        assert.equal((await up(unconfigured, t, withKey)).action, "create");
        assert.ok(JSON.stringify(t.outputs).includes(keyLine()));
        assert.ok(await refresh(unconfigured, t));

        const next = await up(configured, t);
        assert.equal(next.action, "update", JSON.stringify(next.diff));
        assert.equal(t.outputs!.nb.privateKeyConfig, KEY_CONFIG);
        assert.ok(!JSON.stringify({ checked: t.checked, outputs: t.outputs }).includes(keyLine()), "no key left in inputs or outputs");
        assert.deepEqual(await findColumn(env.nb, "Logical_Router", "name"), ["ovn_cluster_router"]);
        assert.equal((await up(configured, t)).action, "same");
        await destroy(configured, t);
        assert.deepEqual(await findColumn(env.nb, "Logical_Router", "name"), []);
    });

    it("check takes exactly one of privateKeyConfig and privateKey, and a full config key", async () => {
        const t = router();
        const { privateKeyConfig: _, ...neither } = env.configured();
        const cases: Array<[unknown, RegExp]> = [
            [neither, /nb\.privateKeyConfig: exactly one of privateKeyConfig .* and privateKey must be given/],
            [{ ...env.connection(), privateKeyConfig: KEY_CONFIG }, /nb\.privateKeyConfig: exactly one of/],
            [
                { ...env.configured(), privateKeyConfig: "sshPrivateKey" },
                /nb\.privateKeyConfig: must be a full stack config key, <namespace>:<name>/,
            ],
        ];
        for (const [nb, reason] of cases) {
            await assert.rejects(up(configured, t, { ...t.registered, nb }), (err: unknown) => {
                assert.ok(err instanceof CheckFailed, String(err));
                assert.match(err.message, reason);
                assert.ok(!err.message.includes(keyLine()), "the key is not shown");
                return true;
            });
        }
    });
});
