// Many NodeSwitch resources applied at once through one provider host, as the engine does with
// --parallel: all over ONE SSH connection, every group complete and correct, the cluster router
// holding every rtos- port exactly once, and two gateways each owning one ECMP member.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { destroy, track, up, type Tracked } from "../../lab/harness/engine";
import { OWNER, startEnv, type NbEnv } from "../../lab/harness/env";
import { startProviderHost, type ProviderHost } from "../../lab/harness/providerHost";
import { gatewayHosts, scaleModel } from "../../lab/harness/scale";
import { registerUnderMocks } from "../../lab/harness/serializedProviders";
import { atoms, entries, listTable, ownedCounts } from "./support/topology";

const NODES = 30;
const model = scaleModel(NODES - 1, 2); // plus the central master: NODES node networks
const hosts = gatewayHosts(model);

describe(`${NODES} node networks and 2 gateways created in parallel over one SSH connection`, () => {
    let env: NbEnv;
    let host: ProviderHost;
    let all: Tracked[];

    before(async () => {
        env = await startEnv();
        all = (await registerUnderMocks({ model, owner: OWNER, nb: env.connection(), gatewayHost: hosts })).map(track);
        host = await startProviderHost();
    });
    after(async () => {
        await host?.stop();
        await env?.cleanup();
    });

    it("creates all of them at once, each group complete, over a single SSH login", async () => {
        const [router, ...rest] = all;
        await up(host, router);
        const actions = await Promise.all(rest.map((t) => up(host, t)));
        assert.ok(actions.every((a) => a.action === "create"));
        assert.equal(await env.sshd.acceptedLogins(), 1);

        const switches = await listTable(env.nb, "Logical_Switch");
        const lsps = Object.fromEntries((await listTable(env.nb, "Logical_Switch_Port")).map((p) => [p.name, p]));
        const lrps = Object.fromEntries((await listTable(env.nb, "Logical_Router_Port")).map((p) => [p.name, p]));
        const routers = await listTable(env.nb, "Logical_Router");
        const clusterRouter = routers.find((r) => r.name === "ovn_cluster_router")!;
        const clusterPorts = atoms(clusterRouter.ports).map((u: any) => u[1]);
        assert.equal(clusterPorts.length, NODES + 1, "rtoj plus one rtos per node");
        for (const n of model.nodeNetworks) {
            const mine = switches.filter((s) => entries(s.external_ids)["pulumi-group"] === `node/${n.node}`);
            assert.equal(mine.length, 1, n.node);
            assert.equal(mine[0].name, n.switchName);
            assert.equal(entries(mine[0].other_config).subnet, n.subnet);
            const ports = atoms(mine[0].ports)
                .map((u: any) => u[1])
                .sort();
            assert.deepEqual(ports, [lsps[n.routerPeerPort]._uuid[1], lsps[n.mgmtPort]._uuid[1]].sort());
            assert.deepEqual(atoms(lsps[n.mgmtPort].addresses), [`${n.mgmt.mac} ${n.mgmt.ip}`]);
            assert.equal(lrps[n.routerPort].mac, n.router.mac);
            assert.ok(clusterPorts.includes(lrps[n.routerPort]._uuid[1]), `${n.routerPort} on the cluster router`);
            assert.equal(atoms(mine[0].load_balancer).length, 2);
        }
        const routes = await env.nb.nbctl("lr-route-list", "ovn_cluster_router");
        for (const g of model.gateways) assert.match(routes, new RegExp(`0\\.0\\.0\\.0/0\\s+${g.join.ip.replace(/\./g, "\\.")} dst-ip`));
        assert.match(routes, /0\.0\.0\.0\/0.*\n.*0\.0\.0\.0\/0/, "two ECMP members of the default route");
    });

    it("deletes them all at once, leaving only the cluster's own rows", async () => {
        const [router, ...rest] = all;
        await Promise.all(rest.map((t) => destroy(host, t)));
        assert.deepEqual(await ownedCounts(env.nb, OWNER), {
            Logical_Switch: 1,
            Logical_Switch_Port: 1,
            Logical_Router: 1,
            Logical_Router_Port: 1,
            Logical_Router_Static_Route: 0,
            NAT: 0,
            Load_Balancer: 2,
        });
        await destroy(host, router);
        assert.equal(await env.sshd.acceptedLogins(), 1);
    });
});
