// The destroy guard through the provider host, against a real NB over a real sshd: a port made
// by hand on an owned switch, and hosts that cannot be reached or present another key, make the
// guard's delete refuse with NB untouched, and its diff refuse an `up` that drops the switch's
// node; the destroy preview's question (diff against inputs listing nothing) gets the same list.
// A refresh never reports the guard as changed, whatever sits on the switches. Once the port is
// gone the guard steps aside and the groups delete.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import * as pulumi from "@pulumi/pulumi";
import { ownedGroups } from "../../components/guard/destroyGuard";
import { freeLoopbackPort } from "../../lab/harness/nbServer";
import { destroy, refresh, track, up, type Tracked } from "../../lab/harness/engine";
import { devModel, findColumn, OWNER, startEnv, type NbEnv } from "../../lab/harness/env";
import { startProviderHost, type ProviderHost } from "../../lab/harness/providerHost";
import { registerUnderMocks } from "../../lab/harness/serializedProviders";

const model = devModel();
const n = model.nodeNetworks[0];
const GROUP = `node/${n.node}`;
const POD_PORT = "demo_pod-a";
const POD_BLOCKER = `NodeSwitch ${GROUP}: cannot delete: Logical_Switch row "switch" still holds Logical_Switch_Port ${POD_PORT} (not created by Pulumi)`;

describe("DestroyGuard: a destroy, and an up that removes a node, check first", () => {
    let env: NbEnv;
    let host: ProviderHost;
    let router: Tracked;
    let node: Tracked;
    let guard: Tracked;
    const ownRows = () => findColumn(env.nb, "Logical_Switch_Port", "name", `external_ids:pulumi-owner="${OWNER}"`);
    /** The guard's inputs with other groups or hosts. */
    const withInputs = (change: { groups?: unknown[]; hosts?: unknown[] }) => ({ ...guard.registered, ...change });
    /** The engine's diff of the guard, from `olds` (as recorded unless given) to `news`: what preview and up ask. */
    const diff = (news: Record<string, unknown>, olds: Record<string, any> = guard.outputs!) =>
        host.diff(guard.urn, guard.id!, olds, { ...news, __provider: guard.registered.__provider }, guard.checked!);
    /** What the offline destroy preview asks: the diff against inputs that list nothing. */
    const destroyPreview = (olds?: Record<string, any>) => diff(withInputs({ groups: [], hosts: [] }), olds);
    const withoutNode = () => withInputs({ groups: guard.registered.groups.filter((g: { group: string }) => g.group !== GROUP) });

    before(async () => {
        env = await startEnv();
        const registered = await registerUnderMocks({ model, owner: OWNER, nb: env.connection(), gatewayHost: {} });
        // The mocks stay in place and keep recording into the same list.
        const { DestroyGuard } = await import("../../components/guard/destroyGuard");
        const groups = ownedGroups(model).filter((g) => g.group === GROUP || g.type === "ClusterRouter");
        const made = new DestroyGuard("destroy-guard", {
            nb: env.connection(),
            owner: OWNER,
            groups,
            hosts: [{ name: "central", ssh: env.sshd.target() }],
            centrals: ["central"],
            privateKey: env.sshd.privateKey,
        });
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
        const recorded = guard.outputs;
        assert.deepEqual(await refresh(host, guard), recorded);
        assert.equal((await destroyPreview()).changes, 2);
    });

    it("a port made by hand on an owned switch: refresh reports no change, destroy and its preview refuse naming switch and port, NB untouched", async () => {
        await env.nb.nbctl("lsp-add", n.switchName, POD_PORT);
        const before = await ownRows();
        const recorded = guard.outputs;
        assert.deepEqual(await refresh(host, guard), recorded, "the guard has no live state: a pod is no drift");
        const refusal = (err: Error) => {
            assert.match(err.message, /destroy stopped before deleting anything: 1 blocker\(s\):\n {2}- /);
            assert.ok(err.message.includes(POD_BLOCKER), err.message);
            assert.match(err.message, /kubectl drain/);
            assert.ok(!err.message.includes(env.sshd.privateKey.split("\n")[1]));
            return true;
        };
        await assert.rejects(destroyPreview(), refusal);
        await assert.rejects(destroy(host, guard), refusal);
        assert.deepEqual(await ownRows(), before);
        assert.deepEqual(await findColumn(env.nb, "Logical_Switch_Port", "name", `name=${POD_PORT}`), [POD_PORT]);
    });

    it("an up that drops the node is refused in diff (preview and up) naming its pod; the kept cluster router is not listed", async () => {
        await assert.rejects(diff(withoutNode()), (err: Error) => {
            assert.match(err.message, new RegExp(`removing ${GROUP} stopped before deleting anything: 1 blocker\\(s\\):`));
            assert.ok(err.message.includes(POD_BLOCKER), err.message);
            assert.doesNotMatch(err.message, /ClusterRouter/);
            return true;
        });
        assert.deepEqual(await findColumn(env.nb, "Logical_Switch_Port", "name", `name=${POD_PORT}`), [POD_PORT]);
    });

    it("hosts that do not answer or present another key than the pinned one block their own removal and a destroy", async () => {
        const silent = { name: "node9", ssh: env.sshd.target({ port: await freeLoopbackPort() }) };
        const impostor = { name: "node8", ssh: env.sshd.target({ hostKey: model.hosts[0].ssh.hostKey! }) };
        const recordedWith = { ...guard.outputs, hosts: [...guard.outputs!.hosts, silent, impostor] };
        await assert.rejects(diff(withInputs({ hosts: [...guard.registered.hosts, impostor] }), recordedWith), (err: Error) => {
            assert.match(
                err.message,
                /removing host node9 stopped before deleting anything: 1 blocker\(s\):\n {2}- host node9: SSH connection to root@127\.0\.0\.1:\d+ failed: connect ECONNREFUSED/,
            );
            return true;
        });
        await assert.rejects(destroyPreview(recordedWith), (err: Error) => {
            assert.match(err.message, /3 blocker\(s\)/);
            assert.match(err.message, /- host node9: SSH connection to root@127\.0\.0\.1:\d+ failed: connect ECONNREFUSED/);
            assert.match(err.message, /- host node8: host key mismatch for 127\.0\.0\.1:\d+: it presented SHA256:/);
            return true;
        });
        // The stack's host listed under another name: a rename in place, refused before any check.
        await assert.rejects(diff(withInputs({ hosts: [{ ...guard.registered.hosts[0], name: "central2" }] })), (err: Error) => {
            assert.match(
                err.message,
                /renaming stopped before anything was changed:\n {2}- node "central" \(127\.0\.0\.1:\d+\) is renamed "central2"/,
            );
            return true;
        });
        // Adding hosts removes nothing: no check, whatever they answer.
        assert.equal((await diff(withInputs({ hosts: [...guard.registered.hosts, silent] }))).changes, 2);
    });

    it("with the port removed the node's removal passes, the guard's delete passes, and the groups delete after it", async () => {
        await env.nb.nbctl("lsp-del", POD_PORT);
        assert.equal((await diff(withoutNode())).changes, 2);
        await destroy(host, guard);
        await destroy(host, node);
        await destroy(host, router);
        assert.deepEqual(await ownRows(), []);
        assert.equal((await env.nb.nbctl("show")).trim(), "");
    });
});
