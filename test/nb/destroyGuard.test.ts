// The destroy guard through the provider host, against a real NB over a real sshd: a port made
// by hand on an owned switch, and hosts that cannot be reached or present another key, are
// listed by refresh and make the guard's delete refuse with NB untouched; once they are gone the
// guard steps aside and the groups delete.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import * as pulumi from "@pulumi/pulumi";
import { ownedGroups } from "../../components/guard/destroyGuard";
import { freeLoopbackPort } from "../support/nbServer";
import { destroy, refresh, track, up, type Tracked } from "./support/engine";
import { devModel, findColumn, OWNER, startEnv, type NbEnv } from "./support/env";
import { startProviderHost, type ProviderHost } from "./support/providerHost";
import { registerUnderMocks } from "./support/serializedProviders";

const model = devModel();
const n = model.nodeNetworks[0];
const GROUP = `node/${n.node}`;
const POD_PORT = "demo_pod-a";

describe("DestroyGuard: a destroy checks first", () => {
    let env: NbEnv;
    let host: ProviderHost;
    let router: Tracked;
    let node: Tracked;
    let guard: Tracked;
    const ownRows = () => findColumn(env.nb, "Logical_Switch_Port", "name", `external_ids:pulumi-owner="${OWNER}"`);
    /** The guard's inputs with other hosts: the stack's groups stay the same. */
    const withHosts = (hosts: { name: string; ssh: unknown }[]) => ({ ...guard.registered, hosts });

    before(async () => {
        env = await startEnv();
        const registered = await registerUnderMocks({ model, owner: OWNER, nb: env.connection(), gatewayHost: {} });
        // The mocks stay in place and keep recording into the same list.
        const { DestroyGuard } = await import("../../components/guard/destroyGuard");
        const groups = ownedGroups(model).filter((g) => g.group === GROUP || g.type === "ClusterRouter");
        const made = new DestroyGuard("destroy-guard", { nb: env.connection(), owner: OWNER, groups, hosts: [{ name: "central", ssh: env.sshd.target() }], privateKey: env.sshd.privateKey });
        await new Promise<void>((resolve) => pulumi.all([made.urn]).apply(() => resolve()));
        router = track(registered.find((r) => r.name === "cluster-router")!);
        node = track(registered.find((r) => r.name === `node-${n.node}`)!);
        guard = track(registered.find((r) => r.name === "destroy-guard")!);
        host = await startProviderHost();
        await up(host, router);
        await up(host, node);
        assert.equal((await up(host, guard)).action, "create");
    });
    after(async () => {
        await host?.stop();
        await env?.cleanup();
    });

    it("finds nothing on a stack as it created it: the cluster router holding the nodes' ports is no blocker", async () => {
        assert.deepEqual(guard.outputs!.blockers, []);
        assert.deepEqual((await refresh(host, guard))!.blockers, []);
    });

    it("a port made by hand on an owned switch: refresh lists it, delete refuses naming switch and port, NB untouched", async (c) => {
        await env.nb.nbctl("lsp-add", n.switchName, POD_PORT);
        const before = await ownRows();
        const blockers: string[] = (await refresh(host, guard))!.blockers;
        c.diagnostic(blockers.join("\n"));
        assert.deepEqual(blockers, [`NodeSwitch ${GROUP}: cannot delete: Logical_Switch row "switch" still holds Logical_Switch_Port ${POD_PORT} (not created by Pulumi)`]);
        await assert.rejects(destroy(host, guard), (err: Error) => {
            assert.match(err.message, /destroy stopped before deleting anything: 1 blocker/);
            assert.ok(err.message.includes(`NodeSwitch ${GROUP}`) && err.message.includes(POD_PORT), err.message);
            assert.ok(!err.message.includes(env.sshd.privateKey.split("\n")[1]));
            return true;
        });
        assert.deepEqual(await ownRows(), before);
        assert.deepEqual(await findColumn(env.nb, "Logical_Switch_Port", "name", `name=${POD_PORT}`), [POD_PORT]);
    });

    it("hosts that do not answer or present another key than the pinned one are blockers too", async (c) => {
        const silent = { name: "node9", ssh: env.sshd.target({ port: await freeLoopbackPort() }) };
        const impostor = { name: "node8", ssh: env.sshd.target({ hostKey: model.hosts[0].ssh.hostKey! }) };
        await up(host, guard, withHosts([silent, impostor]));
        const blockers: string[] = (await refresh(host, guard))!.blockers;
        c.diagnostic(blockers.join("\n"));
        assert.equal(blockers.length, 3);
        assert.match(blockers[1], /^host node9: SSH connection to root@127\.0\.0\.1:\d+ failed: connect ECONNREFUSED/);
        assert.match(blockers[2], /^host node8: host key mismatch for 127\.0\.0\.1:\d+: it presented SHA256:/);
        await up(host, guard, guard.registered);
    });

    it("with the port removed the guard's delete passes, and the groups delete after it", async () => {
        await env.nb.nbctl("lsp-del", POD_PORT);
        assert.deepEqual((await refresh(host, guard))!.blockers, []);
        await destroy(host, guard);
        await destroy(host, node);
        await destroy(host, router);
        assert.deepEqual(await ownRows(), []);
        assert.equal((await env.nb.nbctl("show")).trim(), "");
    });
});
