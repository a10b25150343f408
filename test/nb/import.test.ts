// `pulumi import` of a topology the seeds built: NB filled the way `ovn-k8s-overlay master-init /
// minion-init / gateway-init` filled it (one ovn-nbctl command at a time, no ownership tags), then
// each NB resource is read through the SDK's dynamic-provider host with no recorded state (only
// the declared inputs, as the engine passes them for an import), and the next `up` changes only
// what differs from the declaration: the ownership tags, and one column changed by hand.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { clusterCommands, gatewayCommands, nodeCommands, type NbctlCommand } from "../../bench/seedCommands";
import { NB_TABLES } from "../../components/nb/core/tables";
import { resourceId } from "../../components/nb/resources/nbProvider";
import type { NbServer } from "../../lab/harness/nbServer";
import { refresh, rowStates, up, track, type Tracked } from "../../lab/harness/engine";
import { devModel, GATEWAY_HOST, OWNER, startEnv, type NbEnv } from "../../lab/harness/env";
import { startProviderHost, type ProviderHost } from "../../lab/harness/providerHost";
import { registerUnderMocks } from "../../lab/harness/serializedProviders";
import { assertClusterRouter, assertGateway, assertNodeNetwork, listTable } from "./support/topology";

const model = devModel();
const gateway = model.gateways[0];
const minion = model.nodeNetworks[1];
/** The port changed by hand before the import: the declaration says otherwise, so `up` sets it back. */
const BY_HAND = "0a:58:0a:00:00:99 192.168.1.99";

async function seed(nb: NbServer): Promise<void> {
    const captured: Record<string, string> = {};
    const run = async (commands: NbctlCommand[]) => {
        for (const c of commands) {
            const out = await nb.nbctl(...c.args.map((a) => a.replace(/\{([^}]+)\}/g, (_, name: string) => captured[name])));
            if (c.capture) captured[c.capture] = out.trim();
        }
    };
    await run(clusterCommands(model));
    for (const n of model.nodeNetworks) await run(nodeCommands(n));
    await run(gatewayCommands(gateway, GATEWAY_HOST));
}

/** Every row of the tables the stack writes: table → uuid → column → value (OVSDB JSON). */
async function everything(nb: NbServer): Promise<Record<string, Record<string, Record<string, unknown>>>> {
    const all: Record<string, Record<string, Record<string, unknown>>> = {};
    for (const table of NB_TABLES) all[table] = Object.fromEntries((await listTable(nb, table)).map((row) => [row._uuid[1], row]));
    return all;
}

/** `<table> <name or uuid>.<column>` for every cell that differs; rows added or removed as `+`/`-`. */
function changes(before: Awaited<ReturnType<typeof everything>>, after: Awaited<ReturnType<typeof everything>>): string[] {
    const out: string[] = [];
    for (const table of NB_TABLES) {
        for (const uuid of new Set([...Object.keys(before[table]), ...Object.keys(after[table])])) {
            const [a, b] = [before[table][uuid], after[table][uuid]];
            const label = `${table} ${String((a ?? b).name || uuid)}`;
            if (!a || !b) {
                out.push(`${a ? "-" : "+"}${label}`);
                continue;
            }
            for (const column of Object.keys(b))
                if (JSON.stringify(a[column]) !== JSON.stringify(b[column])) out.push(`${label}.${column}`);
        }
    }
    return out.sort();
}

describe("import of a seed-built topology (no tags) through the dynamic-provider host", () => {
    let env: NbEnv;
    let host: ProviderHost;
    const r: Record<string, Tracked> = {};

    before(async () => {
        env = await startEnv();
        await seed(env.nb);
        // Rows of others: an operator's switch with a port, and a load balancer; never adopted, never changed.
        await env.nb.nbctl("ls-add", "operator-switch", "--", "lsp-add", "operator-switch", "operator-port");
        await env.nb.nbctl("lb-add", "foreign-lb", "10.96.0.1:80", "10.0.0.5:8080", "tcp");
        await env.nb.nbctl("lsp-set-addresses", minion.mgmtPort, BY_HAND);
        for (const reg of await registerUnderMocks({
            model,
            owner: OWNER,
            nb: env.connection(),
            gatewayHost: { [gateway.node]: GATEWAY_HOST },
        }))
            r[reg.name] = track(reg);
        host = await startProviderHost();
    });
    after(async () => {
        await host?.stop();
        await env?.cleanup();
    });

    it("read with no recorded state finds every row by ovn-kubernetes' names and records its UUID; nothing is written", async () => {
        const before_ = await everything(env.nb);
        for (const t of Object.values(r)) {
            const group =
                t.name === "cluster-router"
                    ? `cluster/${model.clusterRouter.name}`
                    : `${t.name.split("-")[0]}/${t.name.slice(t.name.indexOf("-") + 1)}`;
            const id = resourceId(OWNER, group);
            const read = await host.read(t.urn, id, {}, t.registered);
            assert.equal(read.id, id, t.name);
            assert.ok(read.inputs, `${t.name}: an import returns the inputs`);
            for (const [name, state] of Object.entries<any>(rowStates(t, read.properties))) {
                const table = before_[state.table];
                assert.ok(table[state.uuid], `${t.name}: ${name} is the seed's row ${state.uuid}`);
                assert.ok(!JSON.stringify(table[state.uuid].external_ids).includes("pulumi-"), `${name} was untagged`);
            }
            // As the engine records an import: the read's outputs and inputs.
            Object.assign(t, { id, outputs: read.properties, checked: read.inputs });
        }
        const node = rowStates(r[`node-${minion.node}`]);
        assert.deepEqual(Object.keys(node).sort(), [
            `Logical_Router_Port ${minion.routerPort}`,
            `Logical_Switch ${minion.switchName}`,
            `Logical_Switch_Port ${minion.mgmtPort}`,
            `Logical_Switch_Port ${minion.routerPeerPort}`,
        ]);
        assert.deepEqual(node[`Logical_Switch_Port ${minion.mgmtPort}`].columns.addresses, [BY_HAND]);
        assert.equal(Object.keys(r[`gateway-${gateway.node}`].outputs!.rows).length, 13);
        assert.deepEqual(await everything(env.nb), before_);
    });

    it("a wrong import id is refused naming the one these inputs make", async () => {
        const t = r[`node-${minion.node}`];
        await assert.rejects(
            host.read(t.urn, `${OWNER}:node/elsewhere`, {}, t.registered),
            /import id ".*node\/elsewhere" does not name the declared rows: expected ".*:node\/kube-minion1"/,
        );
    });

    it("the next up changes only what differs from the declaration: tags on every adopted row, the port changed by hand; no row added or removed", async () => {
        const before_ = await everything(env.nb);
        for (const t of Object.values(r)) assert.equal((await up(host, t)).action, "update", t.name);
        const changed = changes(before_, await everything(env.nb));
        const tagged = Object.values(r).flatMap((t) =>
            Object.values<any>(rowStates(t)).map((s) => `${s.table} ${before_[s.table][s.uuid].name || s.uuid}.external_ids`),
        );
        const declared = [`Logical_Switch_Port ${minion.mgmtPort}.addresses`];
        assert.deepEqual(changed, [...new Set([...tagged, ...declared])].sort());
        assert.equal(tagged.length, 6 + 3 * 4 + 13);
        // The rows are the seed's (same UUIDs) and now as declared.
        for (const t of Object.values(r))
            for (const s of Object.values<any>(rowStates(t))) assert.ok(before_[s.table][s.uuid], `${t.name}: ${s.key} kept its row`);
        await assertClusterRouter(env.nb, model);
        for (const n of model.nodeNetworks) await assertNodeNetwork(env.nb, n);
        await assertGateway(env.nb, gateway, GATEWAY_HOST);
    });

    it("after that, up does nothing; refresh, and an import with the state lost, find the same rows by their tags", async () => {
        for (const t of Object.values(r)) {
            assert.equal((await up(host, t)).action, "same", t.name);
            const rows = t.outputs!.rows;
            assert.deepEqual((await refresh(host, t))!.rows, rows, t.name);
            assert.deepEqual((await host.read(t.urn, t.id!, {}, t.registered)).properties.rows, rows, t.name);
        }
    });
});
