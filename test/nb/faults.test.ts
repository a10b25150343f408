// Faults between the provider host and NB: a wrong host key, NB restarted between operations,
// NB down, and sshd killed while transactions are in flight. Every group is applied atomically,
// errors say which resource and what happened (never the key), and re-running converges.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { CheckFailed, track, up, type Tracked } from "../../lab/harness/engine";
import { OWNER, startEnv, type NbEnv } from "../../lab/harness/env";
import { startProviderHost, type ProviderHost } from "../../lab/harness/providerHost";
import { startNbProxy, type NbProxy } from "./support/nbProxy";
import { gatewayHosts, scaleModel } from "../../lab/harness/scale";
import { registerUnderMocks } from "../../lab/harness/serializedProviders";
import { atoms, entries, listTable } from "./support/topology";
import { stackConfig } from "../../lab/harness/configs";

const model = scaleModel(23, 1);

/** Rows per node group, by the pulumi-group tag: each must be 0 (never applied) or complete. */
async function groupSizes(env: NbEnv): Promise<Record<string, number>> {
    const sizes: Record<string, number> = {};
    for (const table of ["Logical_Switch", "Logical_Switch_Port", "Logical_Router_Port"]) {
        for (const row of await listTable(env.nb, table)) {
            const group = entries(row.external_ids)["pulumi-group"];
            if (group?.startsWith("node/")) sizes[group] = (sizes[group] ?? 0) + 1;
        }
    }
    return sizes;
}

describe("faults", () => {
    let env: NbEnv;
    let host: ProviderHost;
    let all: Record<string, Tracked>;
    let proxy: NbProxy;
    const key = () => env.sshd.privateKey.split("\n")[1];

    before(async () => {
        env = await startEnv();
        const registered = await registerUnderMocks({ model, owner: OWNER, nb: env.connection(), gatewayHost: gatewayHosts(model) });
        all = Object.fromEntries(registered.map((r) => [r.name, track(r)]));
        host = await startProviderHost();
        proxy = await startNbProxy(env.nb.socket);
    });
    after(async () => {
        await host?.stop();
        await proxy?.close();
        await env?.cleanup();
    });

    it("a host key other than the pinned one is refused before anything is sent", async (c) => {
        const t = all["cluster-router"];
        const wrongPin = (stackConfig("prod") as { nodes: { hostKey: string }[] }).nodes[0].hostKey; // a valid key, but not this sshd's
        const news = { ...t.registered, nb: { ...t.registered.nb, ssh: { ...t.registered.nb.ssh, hostKey: wrongPin } } };
        await assert.rejects(up(host, t, news), (err: Error) => {
            c.diagnostic(err.message);
            assert.match(
                err.message,
                /ClusterRouter cluster\/ovn_cluster_router: host key mismatch for 127\.0\.0\.1:\d+: it presented SHA256:/,
            );
            assert.ok(!err.message.includes(key()));
            return true;
        });
        assert.equal((await env.nb.nbctl("show")).trim(), "");
        await assert.rejects(
            up(host, t, { ...news, nb: { ...news.nb, ssh: { ...news.nb.ssh, hostKey: "SHA256:nope" } } }),
            (err: unknown) => {
                assert.ok(err instanceof CheckFailed);
                assert.deepEqual(
                    err.failures.map((f) => f.property),
                    ["nb.ssh.hostKey"],
                );
                return true;
            },
        );
    });

    it("NB restarted between operations: the next call reconnects", async () => {
        assert.equal((await up(host, all["cluster-router"])).action, "create");
        await env.nb.restart();
        assert.equal((await up(host, all["node-master"])).action, "create");
        assert.match(await env.nb.nbctl("lsp-list", "master"), /k8s-master/);
    });

    it("NB down: a clear error naming the resource; started again, the same call converges", async (c) => {
        const t = all["node-node-0001"];
        await env.nb.stop();
        await assert.rejects(up(host, t), (err: Error) => {
            c.diagnostic(err.message);
            assert.match(err.message, /^2 UNKNOWN: NodeSwitch node\/node-0001: /);
            assert.match(err.message, /ovnnb_db\.sock/);
            return true;
        });
        await env.nb.start();
        assert.equal((await up(host, t)).action, "create");
    });

    it("sshd killed while transactions are in flight: no partial group; re-running converges without duplicates", async (c) => {
        const pending = Object.values(all).filter((t) => t.id === undefined && t.name.startsWith("node-"));
        assert.ok(pending.length >= 20);
        // Through the proxy: the 3rd write reaches NB and commits, its reply and everything after are lost.
        const viaProxy = (t: Tracked) => ({ ...t.registered, nb: { ...t.registered.nb, socket: proxy.socket } });
        const cutOff = proxy.cutAfterWrites(3);
        const runs = pending.map((t) =>
            up(host, t, viaProxy(t)).then(
                () => undefined,
                (err: Error) => err,
            ),
        );
        const committed = await cutOff;
        await env.sshd.stop();
        const errors = (await Promise.all(runs)).filter((e): e is Error => e !== undefined);
        assert.ok(errors.length >= pending.length - 2, `${errors.length} of ${pending.length} applies were cut off`);
        for (const m of new Set(errors.map((e) => e.message.replace(/node-\d+/g, "node-N")))) c.diagnostic(m);
        for (const err of errors) {
            assert.match(err.message, /NodeSwitch node\/[a-z0-9-]+: /);
            assert.ok(!err.message.includes(key()));
        }
        const sizes = await groupSizes(env);
        for (const [group, size] of Object.entries(sizes)) assert.equal(size, 4, `${group} is complete or absent`);
        // The last write that got through was committed although its apply reported an error.
        const lastGroup = committed[committed.length - 1].split(" ")[2];
        assert.equal(sizes[lastGroup], 4);
        // Its session closed under the write; the retry on a fresh session found no SSH server.
        assert.ok(errors.some((e) => e.message.includes(`NodeSwitch ${lastGroup}: SSH connection to`)));

        await env.sshd.start();
        proxy.heal();
        // The engine re-runs the creates that failed; the one whose commit landed adopts its rows.
        const failed = pending.filter((t) => t.id === undefined);
        await Promise.all(failed.map((t) => up(host, t, viaProxy(t))));
        const after = await groupSizes(env);
        assert.equal(Object.keys(after).length, model.nodeNetworks.length);
        assert.ok(Object.values(after).every((n) => n === 4));
        const router = (await listTable(env.nb, "Logical_Router")).find((r) => r.name === "ovn_cluster_router")!;
        assert.equal(atoms(router.ports).length, model.nodeNetworks.length + 1);
    });
});
