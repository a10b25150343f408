// A write returns once every chassis has applied it (NB_Global hv_cfg, as `ovn-nbctl --wait=hv`),
// against a real NB, SB and ovn-northd: a chassis that stays behind is named within the bound while
// NB keeps the committed rows, a chassis that catches up releases the waiting write at that moment,
// and the next up converges. The chassis is the SB's own Chassis and Chassis_Private rows, which
// ovn-controller writes on a host; here the test writes them, as it moves a chassis' nb_cfg.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { CheckFailed, track, up, type Tracked } from "../../lab/harness/engine";
import { OWNER, startEnv, type NbEnv } from "../../lab/harness/env";
import { startProviderHost, type ProviderHost } from "../../lab/harness/providerHost";
import { gatewayHosts, scaleModel } from "../../lab/harness/scale";
import { registerUnderMocks } from "../../lab/harness/serializedProviders";

const model = scaleModel(3, 1);

describe("a write waits for every chassis", () => {
    let env: NbEnv;
    let host: ProviderHost;
    let all: Record<string, Tracked>;
    const nbGlobal = async (column: string) => Number((await env.nb.nbctl("get", "NB_Global", ".", column)).trim());
    const withWait = (t: Tracked, seconds: number) => ({ ...t.registered, nb: { ...t.registered.nb, chassisWaitSeconds: seconds } });

    before(async () => {
        env = await startEnv();
        const registered = await registerUnderMocks({ model, owner: OWNER, nb: env.connection(), gatewayHost: gatewayHosts(model) });
        all = Object.fromEntries(registered.map((r) => [r.name, track(r)]));
        host = await startProviderHost();
    });
    after(async () => {
        await host?.stop();
        await env?.cleanup();
    });

    it("with no chassis, a create returns once ovn-northd has passed the bumped nb_cfg to the SB", async () => {
        const before = await nbGlobal("nb_cfg");
        assert.equal((await up(host, all["cluster-router"])).action, "create");
        const nbCfg = await nbGlobal("nb_cfg");
        assert.equal(nbCfg, before + 1);
        assert.equal(await nbGlobal("sb_cfg"), nbCfg);
        assert.equal(await nbGlobal("hv_cfg"), nbCfg);
    });

    it("a chassis that stays behind is named within the bound; NB keeps the committed rows", async (c) => {
        await env.northd.sbctl("chassis-add", "ch-node2", "geneve", "192.0.2.12");
        await env.northd.sbctl("set", "Chassis", "ch-node2", "hostname=node2");
        const chassis = (await env.northd.sbctl("--bare", "--columns=_uuid", "find", "Chassis", "name=ch-node2")).trim();
        await env.northd.sbctl("create", "Chassis_Private", "name=ch-node2", `chassis=${chassis}`, "nb_cfg=0");
        const t = all["node-node-0001"];
        const started = Date.now();
        await assert.rejects(up(host, t, withWait(t, 2)), (err: Error) => {
            c.diagnostic(err.message);
            assert.match(
                err.message,
                /NodeSwitch node\/node-0001: NB holds the change, but not every chassis applied it within 2 s \(nb_cfg \d+\): behind: node2 \(chassis ch-node2\) at nb_cfg 0\. Bring the chassis' ovn-controller back/,
            );
            return true;
        });
        const took = Date.now() - started;
        c.diagnostic(`failed after ${took} ms`);
        assert.ok(took >= 2000 && took < 10000, `${took} ms`);
        assert.equal(t.id, undefined);
        assert.match(await env.nb.nbctl("lsp-list", "node-0001"), /k8s-node-0001/);
    });

    it("a write waiting on that chassis returns once it reports the number; the failed create then adopts its rows", async () => {
        const t = all["node-node-0001"];
        const before = await nbGlobal("nb_cfg");
        let returned = 0;
        const run = up(host, t, withWait(t, 30)).then((r) => ((returned = Date.now()), r));
        // The create bumps nb_cfg; ovn-northd copies it to SB_Global, where ovn-controller reads it.
        let target = 0;
        while (target <= before) target = Number((await env.northd.sbctl("get", "SB_Global", ".", "nb_cfg")).trim());
        await new Promise((r) => setTimeout(r, 1000));
        assert.equal(returned, 0, "returned while the chassis was behind");
        const caughtUp = Date.now();
        await env.northd.sbctl("set", "Chassis_Private", "ch-node2", `nb_cfg=${target}`);
        assert.equal((await run).action, "create");
        assert.ok(returned >= caughtUp);
        assert.equal((await env.nb.nbctl("--bare", "--columns=name", "find", "Logical_Switch", "name=node-0001")).trim(), "node-0001");
        assert.equal(await nbGlobal("hv_cfg"), target);
    });

    it("chassisWaitSeconds 0 returns once NB committed; a value out of range is refused, naming the field", async () => {
        const t = all["node-node-0002"];
        await assert.rejects(up(host, t, withWait(t, -1)), (err: unknown) => {
            assert.ok(err instanceof CheckFailed);
            assert.deepEqual(err.failures, [
                { property: "nb.chassisWaitSeconds", reason: "must be an integer from 0 (no wait) to 3600, got -1" },
            ]);
            return true;
        });
        const before = await nbGlobal("nb_cfg");
        assert.equal((await up(host, t, withWait(t, 0))).action, "create");
        assert.equal(await nbGlobal("nb_cfg"), before);
        await env.northd.sbctl("chassis-del", "ch-node2");
    });

    it("with ovn-northd stopped, the error says so instead of blaming a chassis", async () => {
        await env.northd.stop();
        const t = all["node-node-0003"];
        await assert.rejects(up(host, t, withWait(t, 1)), (err: Error) => {
            assert.match(
                err.message,
                /NodeSwitch node\/node-0003: NB holds the change, but not every chassis applied it within 1 s \(nb_cfg \d+\): ovn-northd has not passed it to the SB \(sb_cfg \d+\): is ovn-northd running/,
            );
            return true;
        });
    });
});
