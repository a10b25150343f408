// A refresh names the row and column: outputs key rows by their OVN name and record beside each
// row's UUID the columns that differ, so the property diff the engine shows for a refresh after a
// by-hand change reads `rows["Logical_Switch_Port stor-<node>"].options`, not an opaque `rows`. Through the SDK's dynamic-provider host against a real NB over SSH.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { refresh, track, up, type Tracked } from "../../lab/harness/engine";
import { devModel, GATEWAY_HOST, OWNER, startEnv, type NbEnv } from "../../lab/harness/env";
import { propertyDiff } from "./support/propertyDiff";
import { startProviderHost, type ProviderHost } from "../../lab/harness/providerHost";
import { registerUnderMocks } from "../../lab/harness/serializedProviders";
import { assertNodeNetwork } from "./support/topology";

const model = devModel();
const n = model.nodeNetworks[2];

describe("refresh and the next diff name the row that drifted", () => {
    let env: NbEnv;
    let host: ProviderHost;
    const r: Record<string, Tracked> = {};

    before(async () => {
        env = await startEnv();
        const gatewayHost = { [model.gateways[0].node]: GATEWAY_HOST };
        for (const reg of await registerUnderMocks({ model, owner: OWNER, nb: env.connection(), gatewayHost })) r[reg.name] = track(reg);
        host = await startProviderHost();
        await up(host, r["cluster-router"]);
        await up(host, r[`node-${n.node}`]);
    });
    after(async () => {
        await host?.stop();
        await env?.cleanup();
    });

    it(`a port changed, then deleted by hand: refresh shows rows["Logical_Switch_Port ${n.routerPeerPort}"]`, async () => {
        const t = r[`node-${n.node}`];
        const port = `Logical_Switch_Port ${n.routerPeerPort}`;
        await env.nb.nbctl("lsp-set-options", n.routerPeerPort, "router-port=elsewhere");
        let olds = t.outputs!;
        assert.deepEqual(propertyDiff(olds, await refresh(host, t)), [`rows[${JSON.stringify(port)}].options`]);
        assert.deepEqual(t.outputs!.rows[port].options, { "router-port": "elsewhere" });

        await env.nb.nbctl("lsp-del", n.routerPeerPort);
        olds = t.outputs!;
        const diff = propertyDiff(olds, await refresh(host, t));
        assert.deepEqual(diff, [`rows[${JSON.stringify(port)}]`]);
        assert.match(diff[0], new RegExp(n.routerPeerPort));

        // The next up sees the change from those same rows, and repairs exactly that port.
        const { action } = await up(host, t);
        assert.equal(action, "update");
        await assertNodeNetwork(env.nb, n);
        assert.deepEqual(propertyDiff(olds, t.outputs), [`rows[${JSON.stringify(port)}].options`, `rows[${JSON.stringify(port)}].uuid`]);
    });
});
