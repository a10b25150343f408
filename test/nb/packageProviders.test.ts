// The NB providers as the engine stores and runs them. The `__provider` text is what the program
// registers through the SDK (a mocks run), the SDK's dynamic-provider host runs it with the project as cwd,
// and every call goes over gRPC against a real NB reached over a real sshd: the stored text is a
// small stub, the code that runs is the installed package, and the state of an NB resource
// (inputs and outputs, secrets sealed as in a checkpoint) is measured and printed.
import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { after, before, describe, it } from "node:test";
import { serializeFunction } from "@pulumi/pulumi/runtime/closure/serializeClosure";
import { PACKAGE_NAME, PROVIDER_CONTRACT, PROVIDERS_ENTRY } from "../../components/dynamic/contract";
import { clusterRouterKind } from "../../components/nb/kinds/clusterRouter";
import { nbProviderImplementation } from "../../components/nb/resources/nbProvider";
import { destroy, refresh, up, type Tracked } from "../../lab/harness/engine";
import { startDevTopology, type DevTopology } from "./support/devTopology";
import { devModel, findColumn, type NbEnv } from "../../lab/harness/env";
import { PROJECT_ROOT, type ProviderHost } from "../../lab/harness/providerHost";
import type { Registered } from "../../lab/harness/serializedProviders";
import { stateBytes } from "../../lab/harness/stateSize";

/** The stub is stored twice per resource (inputs and outputs): one line that requires the package. */
const STUB_BUDGET = 160;
/**
 * Whole state per NB resource: two stubs plus the kind's own data (today: nb connection sealed
 * twice, rows keyed by their OVN names, inputs echoed). A gateway router is the largest.
 */
const STATE_BUDGET = 9 * 1024;
const model = devModel();
const installedVersion = JSON.parse(fs.readFileSync(path.join(PROJECT_ROOT, "components/package.json"), "utf8")).version as string;

describe("NB providers stored as stubs, run from the installed package", () => {
    let env: NbEnv;
    let host: ProviderHost;
    let registered: Registered[];
    let r: Record<string, Tracked> = {};
    let topology: DevTopology | undefined;

    before(async () => {
        topology = await startDevTopology(model);
        ({ env, host, registered, tracked: r } = topology);
    });
    after(async () => {
        await topology?.stop();
    });

    it("the serialized provider is a stub that requires the package entry under the contract, without the implementation", () => {
        for (const x of registered) {
            const text: string = x.inputs.__provider;
            assert.ok(text.includes(JSON.stringify(PROVIDERS_ENTRY)), `${x.name}: the stub requires ${PROVIDERS_ENTRY}`);
            assert.ok(
                text.includes(`.installedProvider(${JSON.stringify(x.type.replace("pulumi-nodejs:dynamic/", ""))}, ${PROVIDER_CONTRACT}, `),
                `${x.name}: the stub passes its type token and contract`,
            );
            assert.ok(text.length <= STUB_BUDGET, `${x.name}: stub of ${text.length} bytes`);
            for (const inner of ["applyGroup", "withNb", "ssh2", "transact"])
                assert.ok(!text.includes(inner), `${x.name}: ${inner} must not be copied into state`);
        }
    });

    it("create, diff, update, refresh and delete run the installed package against the real NB", async () => {
        const router = r["cluster-router"];
        const node = r[`node-${model.nodeNetworks[0].node}`];
        assert.equal((await up(host, router)).action, "create");
        assert.equal((await up(host, node)).action, "create");
        assert.deepEqual(await findColumn(env.nb, "Logical_Switch", "name", `name=${model.nodeNetworks[0].switchName}`), [
            model.nodeNetworks[0].switchName,
        ]);
        assert.equal((await up(host, node)).action, "same");
        const network = node.registered.network;
        const moved = { ...node.registered, network: { ...network, mgmt: { ...network.mgmt, mac: "0a:58:c0:a8:01:fe" } } };
        assert.equal((await up(host, node, moved)).action, "update");
        const addresses = await findColumn(env.nb, "Logical_Switch_Port", "addresses", `external_ids:pulumi-group=node/${network.node}`);
        assert.match(addresses.join(" "), /0a:58:c0:a8:01:fe/);
        const read = await refresh(host, node);
        assert.ok(read, "refresh finds the group");
        await destroy(host, node);
        assert.deepEqual(await findColumn(env.nb, "Logical_Switch", "name", `name=${model.nodeNetworks[0].switchName}`), []);
        await destroy(host, router);
    });

    it(`state per NB resource (inputs + outputs, secrets sealed) is at most ${STATE_BUDGET} bytes, the stubs' share at most ${2 * STUB_BUDGET}`, async () => {
        const all = Object.values(r);
        for (const t of all) assert.equal((await up(host, t)).action, "create");
        const sizes = stateBytes(all);
        console.log("state bytes per NB resource (inputs + outputs; of which the two provider stubs):");
        all.forEach((t, i) =>
            console.log(
                `  ${t.name}: ${sizes[i].total} (stubs ${sizes[i].provider}, the kind's data ${sizes[i].total - sizes[i].provider})`,
            ),
        );
        all.forEach((t, i) => {
            assert.ok(sizes[i].total <= STATE_BUDGET, `${t.name}: ${sizes[i].total} bytes of state`);
            assert.ok(sizes[i].provider <= 2 * STUB_BUDGET, `${t.name}: ${sizes[i].provider} bytes of stubs`);
        });
        for (const t of Object.values(r).reverse()) await destroy(host, t);
    });

    it("state written before the stubs runs its own copy; the next up updates it, which stores the stub", async () => {
        const t = r["cluster-router"];
        // The whole provider by value, serialized by the SDK as the code before the stubs had it.
        const impl = nbProviderImplementation(clusterRouterKind);
        const { text: byValue } = await serializeFunction(() => impl, { allowSecrets: true });
        assert.ok(byValue.length > 50_000 && !byValue.includes(PROVIDERS_ENTRY), `by-value text of ${byValue.length} bytes`);
        const checked = await host.check(t.urn, {}, { ...t.registered, __provider: byValue });
        const created = await host.create(t.urn, checked.inputs);
        Object.assign(t, { id: created.id, outputs: created.properties, checked: checked.inputs });
        assert.equal(t.outputs!.__provider, byValue);
        assert.deepEqual(await findColumn(env.nb, "Logical_Router", "name", "name=ovn_cluster_router"), ["ovn_cluster_router"]);
        const next = await up(host, t);
        assert.equal(next.action, "update");
        assert.equal(t.outputs!.__provider, t.registered.__provider, "the update stored the stub");
        assert.equal((await up(host, t)).action, "same");
        await destroy(host, t);
        assert.deepEqual(await findColumn(env.nb, "Logical_Router", "name", "name=ovn_cluster_router"), []);
    });

    it("a stub written under another contract is refused naming both contracts and versions", async () => {
        const t = r["cluster-router"];
        const future = t.registered.__provider.replace(`, ${PROVIDER_CONTRACT}, `, ", 99, ");
        assert.notEqual(future, t.registered.__provider);
        await assert.rejects(
            host.check(t.urn, {}, { ...t.registered, __provider: future }),
            (e: Error) =>
                e.message.includes(`provider contract 99`) &&
                e.message.includes(`${PACKAGE_NAME} ${installedVersion} speaks contract ${PROVIDER_CONTRACT}`) &&
                e.message.includes(`written by ${PACKAGE_NAME} ${installedVersion}`),
        );
    });
});
