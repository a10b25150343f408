// Writes that cannot record success for rows not kept, nor steal rows, through the provider host
// against a real NB over SSH: another writer changes or deletes an owned row exactly between the
// provider's read and its commit (the NB proxy holds the commit back meanwhile), and a row made
// by hand carries a copy of an owned row's tags.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { NB_SCHEMA_VERSION } from "../../components/nb/kinds/common";
import { destroy, refresh, rowStates, track, up, type Tracked } from "../../lab/harness/engine";
import { devModel, findColumn, OWNER, startEnv, type NbEnv } from "../../lab/harness/env";
import { startNbProxy, type NbProxy } from "./support/nbProxy";
import { startProviderHost, type ProviderHost } from "../../lab/harness/providerHost";
import { registerUnderMocks } from "../../lab/harness/serializedProviders";
import { assertNodeNetwork } from "./support/topology";

const model = devModel();
const n = model.nodeNetworks[0];
const GROUP = `node/${n.node}`;
const DRIFTED = "0a:58:00:00:00:01 10.0.0.9";
/** The recorded row whose stable key is `key` (of rows as engine.rowStates reads them). */
const keyed = (rows: Record<string, any>, key: string) => Object.values(rows).find((s) => s.key === key);

describe("NB writes guarded against other writers, rows claimed by UUID", () => {
    let env: NbEnv;
    let host: ProviderHost;
    let proxy: NbProxy;
    let router: Tracked;
    let node: Tracked;
    /** The node's inputs pointed at the proxy (from its creation on: the socket is part of its identity). */
    const viaProxy = () => ({ ...node.registered, nb: { ...node.registered.nb, socket: proxy.socket } });
    const uuidOf = async (table: string, key: string) =>
        findColumn(env.nb, table, "_uuid", `external_ids:pulumi-group="${GROUP}"`, `external_ids:pulumi-row=${key}`);
    /** An update of the node whose commit the proxy holds while `meanwhile` runs; resolves with its error. */
    async function updateRacing(meanwhile: () => Promise<unknown>): Promise<Error> {
        const hold = proxy.holdNextWrite();
        const run = up(host, node, viaProxy()).then(
            () => assert.fail("the update must fail"),
            (err: Error) => err,
        );
        assert.match(await hold.held, new RegExp(`^pulumi ${OWNER} ${GROUP}$`));
        await meanwhile();
        hold.release();
        return run;
    }

    before(async () => {
        env = await startEnv();
        proxy = await startNbProxy(env.nb.socket);
        const registered = await registerUnderMocks({ model, owner: OWNER, nb: env.connection(), gatewayHost: {} });
        router = track(registered.find((r) => r.name === "cluster-router")!);
        node = track(registered.find((r) => r.name === `node-${n.node}`)!);
        host = await startProviderHost();
        await up(host, router);
        assert.equal((await up(host, node, viaProxy())).action, "create");
    });
    after(async () => {
        await host?.stop();
        await proxy?.close();
        await env?.cleanup();
    });

    it("records the UUID of every row it created, as NB holds them", async () => {
        const rows = node.outputs!.rows;
        assert.equal(node.outputs!.version, NB_SCHEMA_VERSION);
        assert.deepEqual(Object.keys(rows).sort(), [
            `Logical_Router_Port ${n.routerPort}`,
            `Logical_Switch ${n.switchName}`,
            `Logical_Switch_Port ${n.mgmtPort}`,
            `Logical_Switch_Port ${n.routerPeerPort}`,
        ]);
        for (const [name, state] of Object.entries(rowStates(node)))
            assert.deepEqual([state.uuid], await uuidOf(state.table, state.key), name);
    });

    it("a row changed between the read and the commit: the update fails naming it, state not advanced; a re-run converges", async (c) => {
        await env.nb.nbctl("set", "Logical_Switch_Port", n.mgmtPort, `addresses="${DRIFTED}"`);
        await refresh(host, node);
        const recorded = structuredClone(node.outputs);
        const mgmt = keyed(rowStates(node, recorded!), "mgmt-port").uuid;
        const err = await updateRacing(() =>
            env.nb.nbctl("set", "Logical_Switch_Port", n.mgmtPort, `addresses="0a:58:00:00:00:02 10.0.0.10"`, "external_ids:note=by-hand"),
        );
        c.diagnostic(err.message);
        assert.match(
            err.message,
            new RegExp(
                `NodeSwitch ${GROUP}: Logical_Switch_Port row "mgmt-port" \\(${n.mgmtPort}, uuid ${mgmt}\\) was changed or deleted by another writer after it was read: nothing was applied and the state is unchanged; run again`,
            ),
        );
        assert.deepEqual(node.outputs, recorded);
        assert.equal((await env.nb.nbctl("lsp-get-addresses", n.mgmtPort)).trim(), "0a:58:00:00:00:02 10.0.0.10");

        assert.equal((await up(host, node, viaProxy())).action, "update");
        await assertNodeNetwork(env.nb, n);
        assert.equal((await env.nb.nbctl("get", "Logical_Switch_Port", n.mgmtPort, "external_ids:note")).trim(), "by-hand");
        assert.equal(keyed(rowStates(node), "mgmt-port").uuid, mgmt);
    });

    it("a row deleted between the read and the commit: the update fails naming it, state not advanced; a re-run creates it again", async (c) => {
        await env.nb.nbctl("set", "Logical_Switch_Port", n.mgmtPort, `addresses="${DRIFTED}"`);
        await refresh(host, node);
        const recorded = structuredClone(node.outputs);
        const mgmt = keyed(rowStates(node, recorded!), "mgmt-port").uuid;
        const err = await updateRacing(() => env.nb.nbctl("lsp-del", n.mgmtPort));
        c.diagnostic(err.message);
        assert.match(
            err.message,
            new RegExp(`Logical_Switch_Port row "mgmt-port" \\(${n.mgmtPort}, uuid ${mgmt}\\) was changed or deleted by another writer`),
        );
        assert.deepEqual(node.outputs, recorded);
        assert.deepEqual(await uuidOf("Logical_Switch_Port", "mgmt-port"), []);

        assert.equal((await up(host, node, viaProxy())).action, "update");
        await assertNodeNetwork(env.nb, n);
        const [again] = await uuidOf("Logical_Switch_Port", "mgmt-port");
        assert.notEqual(again, mgmt);
        assert.equal(keyed(rowStates(node), "mgmt-port").uuid, again);
    });

    it("state of schema versions 1 (no UUIDs), 2 (UUIDs, keyed by row key) and 3 (whole rows) is read and updated, and gains names, UUIDs and the compact record", async () => {
        for (const [version, keep] of [
            ["1", ["table", "columns"]],
            ["2", ["table", "columns", "uuid"]],
            ["3", []],
        ] as const) {
            // 1 and 2 keyed by the row key; 3 by OVN name, every row whole with its key inside.
            const whole = rowStates(node);
            const legacyRows =
                version === "3"
                    ? whole
                    : Object.fromEntries(Object.values<any>(whole).map((s) => [s.key, Object.fromEntries(keep.map((k) => [k, s[k]]))]));
            const { declared: _, ...rest } = node.outputs!;
            const legacy = { ...rest, version, rows: legacyRows };
            const read = await host.read(node.urn, node.id!, legacy, { ...node.checked!, version });
            assert.deepEqual(read.properties.rows, node.outputs!.rows, version);
            const diff = await host.diff(node.urn, node.id!, legacy, node.checked!, { ...node.checked!, version });
            assert.deepEqual(diff.replaces, [], version);
            const updated = await host.update(node.urn, node.id!, legacy, node.checked!, { ...node.checked!, version });
            assert.equal(updated.version, NB_SCHEMA_VERSION);
            assert.deepEqual(updated.rows, node.outputs!.rows, version);
        }
    });

    it("a row carrying a copy of an owned row's tags: up and destroy fail naming both UUIDs, nothing is deleted", async (c) => {
        const real = keyed(rowStates(node), "switch").uuid;
        const tags = [`external_ids:pulumi-owner="${OWNER}"`, `external_ids:pulumi-group="${GROUP}"`, "external_ids:pulumi-row=switch"];
        await env.nb.nbctl("ls-add", "copied-tags", "--", "set", "Logical_Switch", "copied-tags", ...tags);
        const [copy] = await findColumn(env.nb, "Logical_Switch", "_uuid", "name=copied-tags");

        const read = await refresh(host, node);
        assert.equal(read!.rows[`Logical_Switch ${n.switchName}`].uuid, real);
        assert.deepEqual(read!.rows[`Logical_Switch copied-tags@${copy}`], {
            table: "Logical_Switch",
            key: "switch",
            columns: { name: "copied-tags" },
        });
        const claimed = new RegExp(
            `Logical_Switch row "switch": the row this resource created is ${real}, yet ${copy} carries its tags .*Nothing was changed or deleted`,
        );
        await assert.rejects(up(host, node, viaProxy()), (err: Error) => {
            c.diagnostic(err.message);
            assert.match(err.message, new RegExp(`^2 UNKNOWN: NodeSwitch ${GROUP}: `));
            assert.match(err.message, claimed);
            return true;
        });
        await assert.rejects(destroy(host, node), claimed);
        assert.deepEqual(await findColumn(env.nb, "Logical_Switch", "_uuid", "name=copied-tags"), [copy]);
        assert.deepEqual(await findColumn(env.nb, "Logical_Switch", "_uuid", `name=${n.switchName}`), [real]);
        assert.match(await env.nb.nbctl("lsp-list", real), new RegExp(`\\(${n.mgmtPort}\\)`));

        // Without its row key the copy claims nothing: the group converges and is destroyed around it.
        await env.nb.nbctl("remove", "Logical_Switch", copy, "external_ids", "pulumi-row");
        assert.equal((await up(host, node, viaProxy())).action, "update");
        assert.deepEqual(
            Object.values(rowStates(node))
                .map((s) => s.key)
                .sort(),
            ["mgmt-port", "router-port", "switch", "switch-router-port"],
        );
        await destroy(host, node);
        assert.deepEqual(await findColumn(env.nb, "Logical_Switch", "_uuid", `external_ids:pulumi-group="${GROUP}"`), [copy]);
    });
});
