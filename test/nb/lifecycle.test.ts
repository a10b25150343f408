// The three NB resources through the SDK's dynamic-provider host over gRPC, exactly as the engine
// drives them, against a real NB ovsdb-server reached over a real sshd: the dev stack's topology
// is created, diffed, updated, refreshed (drift found and repaired) and destroyed, and rows the
// stack does not own survive all of it.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { nbResourceOptions } from "../../components/nb/resources/nbResource";
import { isSecretValue } from "../../lab/offline/sdk";
import { destroy, refresh, rowStates, up, type Tracked } from "../../lab/harness/engine";
import { startDevTopology, type DevTopology } from "./support/devTopology";
import { devModel, findColumn, GATEWAY_HOST, KEY_CONFIG, OWNER, type NbEnv } from "../../lab/harness/env";
import type { ProviderHost } from "../../lab/harness/providerHost";
import type { Registered } from "../../lab/harness/serializedProviders";
import {
    addForeignRows,
    assertClusterRouter,
    assertForeignRowsSurvive,
    assertGateway,
    assertNodeNetwork,
    ownedCounts,
    type ForeignRows,
} from "./support/topology";

const model = devModel();
const gateway = model.gateways[0];

describe("NB providers via the dynamic-provider host against a real NB over SSH", () => {
    let env: NbEnv;
    let host: ProviderHost;
    let registered: Registered[];
    let foreign: ForeignRows;
    let r: Record<string, Tracked> = {};
    let topology: DevTopology | undefined;
    const nodes = () => model.nodeNetworks.map((n) => r[`node-${n.node}`]);

    before(async () => {
        topology = await startDevTopology(model);
        ({ env, host, registered, tracked: r } = topology);
        foreign = await addForeignRows(env.nb);
    });
    after(async () => {
        await topology?.stop();
    });

    it("registers dynamic resources whose NB connection names the SSH key's stack config key and holds no key", () => {
        assert.deepEqual(registered.map((x) => x.type).sort(), [
            "pulumi-nodejs:dynamic/ovn-nb:ClusterRouter",
            "pulumi-nodejs:dynamic/ovn-nb:GatewayRouter",
            "pulumi-nodejs:dynamic/ovn-nb:NodeSwitch",
            "pulumi-nodejs:dynamic/ovn-nb:NodeSwitch",
            "pulumi-nodejs:dynamic/ovn-nb:NodeSwitch",
        ]);
        // Options every NB resource is registered with: replacement deletes first.
        const opts = nbResourceOptions({ additionalSecretOutputs: ["other"], dependsOn: [] });
        assert.equal(opts.deleteBeforeReplace, true);
        assert.deepEqual(opts.additionalSecretOutputs, ["other"]);
        const keyLine = env.sshd.privateKey.split("\n")[1];
        for (const x of registered) {
            // Nothing secret left in it: the provider takes the key from its configuration.
            assert.equal(isSecretValue(x.inputs.nb), false, `${x.name}: nb`);
            assert.equal(x.inputs.nb.privateKeyConfig, KEY_CONFIG);
            assert.equal("privateKey" in x.inputs.nb, false);
            assert.ok(!JSON.stringify(x.inputs).includes(keyLine));
        }
    });

    it("check names the property of each bad input", async () => {
        const t = r[`node-${model.nodeNetworks[0].node}`];
        const bad = { ...t.registered, network: { ...t.registered.network, switchName: "kube master", subnet: "192.168.1.0/40" } };
        const { failures } = await host.check(t.urn, {}, bad);
        assert.deepEqual(failures.map((f) => f.property).sort(), ["network.subnet", "network.switchName"]);
        const missing = await host.check(t.urn, {}, { __provider: t.registered.__provider, owner: OWNER });
        assert.deepEqual(missing.failures.map((f) => f.property).sort(), ["nb", "network"]);
    });

    it("create: the dev topology appears with the model's names, subnets, MACs, routes and NAT", async () => {
        assert.equal((await up(host, r["cluster-router"])).action, "create");
        await assertClusterRouter(env.nb, model);
        for (const t of nodes()) assert.equal((await up(host, t)).action, "create");
        assert.equal((await up(host, r[`gateway-${gateway.node}`])).action, "create");
        for (const n of model.nodeNetworks) await assertNodeNetwork(env.nb, n);
        await assertGateway(env.nb, gateway, GATEWAY_HOST);
        assert.equal(r["cluster-router"].id, `${OWNER}:cluster/ovn_cluster_router`);
        // Logged in with the configured key, which no output holds.
        const keyLine = env.sshd.privateKey.split("\n")[1];
        for (const t of Object.values(r)) assert.ok(!JSON.stringify(t.outputs).includes(keyLine), t.name);
        // Rows are recorded under their OVN names, in step with the declaration: their UUIDs only.
        const master = r[`node-kube-master`];
        for (const [name, record] of Object.entries<any>(master.outputs!.rows)) assert.deepEqual(Object.keys(record), ["uuid"], name);
        assert.deepEqual(
            Object.entries(rowStates(master))
                .map(([name, s]) => `${name} = ${s.key}`)
                .sort(),
            [
                "Logical_Router_Port rtos-kube-master = router-port",
                "Logical_Switch kube-master = switch",
                "Logical_Switch_Port k8s-kube-master = mgmt-port",
                "Logical_Switch_Port stor-kube-master = switch-router-port",
            ],
        );
        await assertForeignRowsSurvive(env.nb, foreign);
    });

    it("diff of unchanged inputs reports no changes; a second up does nothing", async () => {
        for (const t of Object.values(r)) {
            const { action, diff } = await up(host, t);
            assert.equal(action, "same", t.name);
            assert.equal(diff!.changes, 1);
        }
    });

    it("create is idempotent: run again after a commit the engine never recorded, it adopts the rows", async () => {
        const before_ = await ownedCounts(env.nb, OWNER);
        const uuids = await findColumn(env.nb, "Logical_Switch_Port", "_uuid", "name=k8s-kube-minion1");
        const t = r["node-kube-minion1"];
        const again = await host.create(t.urn, t.checked!);
        assert.equal(again.id, t.id);
        t.outputs = again.properties; // as the engine records a create
        assert.deepEqual(await ownedCounts(env.nb, OWNER), before_);
        assert.deepEqual(await findColumn(env.nb, "Logical_Switch_Port", "_uuid", "name=k8s-kube-minion1"), uuids);
    });

    it("update: a new node subnet changes only those columns, in place (same row UUIDs)", async () => {
        const t = r["node-kube-minion1"];
        const uuidsBefore = await findColumn(env.nb, "Logical_Switch_Port", "_uuid", "external_ids:pulumi-group=node/kube-minion1");
        const network = {
            ...t.registered.network,
            subnet: "192.168.12.0/24",
            router: { ip: "192.168.12.1", cidr: "192.168.12.1/24", mac: "0a:58:c0:a8:0c:01" },
            mgmt: { ip: "192.168.12.2", cidr: "192.168.12.2/24", mac: "0a:58:c0:a8:0c:02" },
        };
        const { action, diff } = await up(host, t, { ...t.registered, network });
        assert.equal(action, "update");
        assert.deepEqual(diff!.replaces, []);
        await assertNodeNetwork(env.nb, { ...model.nodeNetworks[1], ...network });
        assert.deepEqual(
            (await findColumn(env.nb, "Logical_Switch_Port", "_uuid", "external_ids:pulumi-group=node/kube-minion1")).sort(),
            uuidsBefore.sort(),
        );
        assert.equal((await up(host, t, t.registered)).action, "update");
        await assertNodeNetwork(env.nb, model.nodeNetworks[1]);
        await assertForeignRowsSurvive(env.nb, foreign);
    });

    it("update: a new chassis, NIC MAC and rampout subnets change the gateway in place; dropping a subnet removes its route", async () => {
        const t = r[`gateway-${gateway.node}`];
        const router = await findColumn(env.nb, "Logical_Router", "_uuid", `name=${gateway.router}`);
        const moved = { systemId: "chassis-moved", macAddress: "52:54:00:aa:bb:cc" };
        const rampout = ["192.168.128.0/17", "192.168.64.0/18"];
        assert.equal(
            (await up(host, t, { ...t.registered, ...moved, gateway: { ...t.registered.gateway, rampoutSubnets: rampout } })).action,
            "update",
        );
        await assertGateway(env.nb, { ...gateway, rampoutSubnets: rampout }, moved);
        assert.deepEqual(await findColumn(env.nb, "Logical_Router", "_uuid", `name=${gateway.router}`), router);
        assert.equal(
            (await up(host, t, { ...t.registered, ...moved, gateway: { ...t.registered.gateway, rampoutSubnets: [rampout[1]] } })).action,
            "update",
        );
        const routes = await env.nb.nbctl("lr-route-list", "ovn_cluster_router");
        assert.doesNotMatch(routes, /192\.168\.128\.0\/17/);
        assert.match(routes, /192\.168\.64\.0\/18\s+\S+ src-ip/);
        assert.equal((await up(host, t)).action, "update");
        await assertGateway(env.nb, gateway, GATEWAY_HOST);
        assert.doesNotMatch(await env.nb.nbctl("lr-route-list", "ovn_cluster_router"), /src-ip/);
        await assertForeignRowsSurvive(env.nb, foreign);
    });

    it("diff: renaming a node replaces the resource, deleting first", async () => {
        const t = r["node-kube-minion1"];
        const checked = await host.check(t.urn, t.checked!, {
            ...t.registered,
            network: { ...t.registered.network, node: "kube-minion9", switchName: "kube-minion9" },
        });
        const diff = await host.diff(t.urn, t.id!, t.outputs!, checked.inputs, t.checked!);
        assert.deepEqual(diff, { changes: 2, replaces: ["network"], deleteBeforeReplace: true });
    });

    it("refresh shows drift made by hand, and the next up repairs exactly that", async () => {
        const t = r["node-kube-minion1"];
        const n = model.nodeNetworks[1];
        await env.nb.nbctl("lsp-del", n.mgmtPort);
        await env.nb.nbctl("set", "Logical_Router_Port", n.routerPort, 'mac="0a:00:00:00:00:99"');
        await env.nb.nbctl("set", "Logical_Switch", n.switchName, "other_config:subnet=10.9.9.0/24", "other_config:mcast_snoop=true");
        const read = await refresh(host, t);
        assert.equal(read!.rows[`Logical_Switch_Port ${n.mgmtPort}`], undefined);
        // Beside each row's UUID, the managed columns that differ, as found.
        const { uuid: _, ...port } = read!.rows[`Logical_Router_Port ${n.routerPort}`];
        assert.deepEqual(port, { mac: "0a:00:00:00:00:99" });
        assert.deepEqual(read!.rows[`Logical_Switch ${n.switchName}`].other_config, { subnet: "10.9.9.0/24" });
        const { action, diff } = await up(host, t);
        assert.equal(action, "update");
        assert.deepEqual(diff!.replaces, []);
        await assertNodeNetwork(env.nb, n);
        // The key someone else wrote stays: only the stack's keys are managed.
        assert.match(await env.nb.nbctl("get", "Logical_Switch", n.switchName, "other_config"), /mcast_snoop="?true"?/);
        assert.deepEqual(await refresh(host, t).then((p) => p!.rows), t.outputs!.rows);
    });

    it("refresh reports a group deleted entirely by hand as gone; up creates it again", async () => {
        const t = r["node-kube-minion1"];
        const n = model.nodeNetworks[1];
        await env.nb.nbctl("ls-del", n.switchName, "--", "lrp-del", n.routerPort);
        assert.equal(await refresh(host, t), undefined);
        assert.equal((await up(host, t)).action, "create");
        await assertNodeNetwork(env.nb, n);
    });

    it("a create that finds part of its group (the switch deleted by hand, its router port left) adopts the rest", async () => {
        const t = r["node-kube-minion1"];
        const n = model.nodeNetworks[1];
        const port = await findColumn(env.nb, "Logical_Router_Port", "_uuid", `name=${n.routerPort}`);
        await env.nb.nbctl("ls-del", n.switchName);
        const again = await host.create(t.urn, t.checked!);
        assert.equal(again.id, t.id);
        t.outputs = again.properties; // as the engine records a create
        await assertNodeNetwork(env.nb, n);
        assert.deepEqual(await findColumn(env.nb, "Logical_Router_Port", "_uuid", `name=${n.routerPort}`), port);
    });

    it("deleting the cluster router while node switches hang on it is refused, naming them", async () => {
        const t = r["cluster-router"];
        await assert.rejects(host.delete(t.urn, t.id!, t.outputs!, t.checked!), (err: Error) => {
            assert.match(err.message, /ClusterRouter cluster\/ovn_cluster_router: cannot delete: /);
            assert.match(
                err.message,
                /Logical_Switch row "join-switch" still holds Logical_Switch_Port jtor-GR_kube-minion2 of gateway\/kube-minion2/,
            );
            assert.match(err.message, /Logical_Router_Port rtos-kube-master of node\/kube-master/);
            assert.match(err.message, /Logical_Router_Static_Route 0\.0\.0\.0\/0 of gateway\/kube-minion2/);
            return true;
        });
        await assertClusterRouter(env.nb, model);
    });

    it("destroy removes exactly the owned rows, group by group, and nothing else", async () => {
        await destroy(host, r[`gateway-${gateway.node}`]);
        assert.equal((await env.nb.nbctl("lr-route-list", "ovn_cluster_router")).includes("0.0.0.0/0"), false);
        assert.equal((await env.nb.nbctl("lsp-list", "join")).includes(gateway.joinPeerPort), false);
        assert.deepEqual(await findColumn(env.nb, "Logical_Router", "name", `name=${gateway.router}`), []);
        for (const n of model.nodeNetworks) await assertNodeNetwork(env.nb, n);
        for (const t of nodes()) await destroy(host, t);
        await assertClusterRouter(env.nb, model);
        await destroy(host, r["cluster-router"]);
        assert.deepEqual(await ownedCounts(env.nb, OWNER), {
            Logical_Switch: 0,
            Logical_Switch_Port: 0,
            Logical_Router: 0,
            Logical_Router_Port: 0,
            Logical_Router_Static_Route: 0,
            NAT: 0,
            Load_Balancer: 0,
        });
        await assertForeignRowsSurvive(env.nb, foreign);
        assert.equal((await env.nb.nbctl("--bare", "--columns=name", "list", "Logical_Switch")).trim(), "kube-master");
        assert.equal((await env.nb.nbctl("--bare", "--columns=name", "list", "Load_Balancer")).trim(), "foreign-lb");
    });

    it("the host never printed the private key", () => {
        assert.ok(!host.stderr().includes(env.sshd.privateKey.split("\n")[1]));
    });
});
