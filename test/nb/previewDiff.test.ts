// What `pulumi preview --diff` knows of an NB change, through the SDK's dynamic-provider host over
// gRPC against a real NB behind a real sshd: a changed setting is left to the engine's own diff of
// the inputs (DIFF_UNKNOWN), so its DetailedDiff names the setting and replaceOnChanges and
// ignoreChanges act on it; drift found by refresh with unchanged inputs is still a change that
// the next up repairs; a replacement the provider decides is still a replacement.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { refresh, up, type Tracked } from "../../lab/harness/engine";
import { startDevTopology, type DevTopology } from "./support/devTopology";
import { devModel, findColumn, GATEWAY_HOST } from "../../lab/harness/env";
import { assertGateway, assertNodeNetwork } from "./support/topology";

const DIFF_UNKNOWN = 0;
const DIFF_NONE = 1;
const DIFF_SOME = 2;

const model = devModel();
const node = model.nodeNetworks[1];
const gateway = model.gateways[0];
/** The node's network on another subnet: every setting that follows the subnet changes. */
const renumbered = (network: Record<string, any>) => ({
    ...network,
    subnet: "192.168.12.0/24",
    router: { ip: "192.168.12.1", cidr: "192.168.12.1/24", mac: "0a:58:c0:a8:0c:01" },
    mgmt: { ip: "192.168.12.2", cidr: "192.168.12.2/24", mac: "0a:58:c0:a8:0c:02" },
});

describe("NB changes as the engine diffs them (preview --diff, replaceOnChanges, ignoreChanges)", () => {
    let topology: DevTopology;
    let t: Tracked;
    let gw: Tracked;
    const switchUuid = async () => findColumn(topology.env.nb, "Logical_Switch", "_uuid", `name=${node.switchName}`);

    before(async () => {
        topology = await startDevTopology(model);
        for (const x of Object.values(topology.tracked)) assert.equal((await up(topology.host, x)).action, "create", x.name);
        t = topology.tracked[`node-${node.node}`];
        gw = topology.tracked[`gateway-${gateway.node}`];
    });
    after(async () => {
        await topology?.stop();
    });

    it("a changed setting: the provider leaves the diff to the engine, whose DetailedDiff names each setting; up applies it in place", async () => {
        const uuid = await switchUuid();
        const network = renumbered(t.registered.network);
        const { action, diff, engine } = await up(topology.host, t, { ...t.registered, network });
        assert.equal(diff!.changes, DIFF_UNKNOWN);
        assert.deepEqual(engine!.changedKeys, ["network"]);
        assert.deepEqual(engine!.detailedDiff, {
            "network.subnet": "update",
            "network.router.ip": "update",
            "network.router.cidr": "update",
            "network.router.mac": "update",
            "network.mgmt.ip": "update",
            "network.mgmt.cidr": "update",
            "network.mgmt.mac": "update",
        });
        assert.equal(action, "update");
        await assertNodeNetwork(topology.env.nb, { ...node, ...network });
        assert.deepEqual(await switchUuid(), uuid);
        assert.equal((await up(topology.host, t)).action, "update");
        await assertNodeNetwork(topology.env.nb, node);
    });

    it("a rampout subnet added to a gateway is named by its index", async () => {
        const gateway_ = { ...gw.registered.gateway, rampoutSubnets: [...gw.registered.gateway.rampoutSubnets, "192.168.64.0/18"] };
        const { action, engine } = await up(topology.host, gw, { ...gw.registered, gateway: gateway_ });
        assert.deepEqual(engine!.detailedDiff, { [`gateway.rampoutSubnets[${gateway_.rampoutSubnets.length - 1}]`]: "add" });
        assert.equal(action, "update");
        await assertGateway(topology.env.nb, { ...gateway, rampoutSubnets: gateway_.rampoutSubnets }, GATEWAY_HOST);
        assert.equal((await up(topology.host, gw)).action, "update");
        await assertGateway(topology.env.nb, gateway, GATEWAY_HOST);
    });

    it("drift only (found by refresh, inputs unchanged) is still a change, and up repairs it", async () => {
        await topology.env.nb.nbctl("set", "Logical_Router_Port", node.routerPort, 'mac="0a:00:00:00:00:99"');
        await refresh(topology.host, t);
        const { action, diff, engine } = await up(topology.host, t);
        assert.equal(diff!.changes, DIFF_SOME);
        assert.equal(engine!.changes, true);
        assert.equal(engine!.detailedDiff, undefined);
        assert.equal(action, "update");
        await assertNodeNetwork(topology.env.nb, node);
        assert.equal((await up(topology.host, t)).diff!.changes, DIFF_NONE);
    });

    it("replaceOnChanges on an NB setting: its change replaces the resource; a change elsewhere stays an update", async () => {
        const uuid = await switchUuid();
        const network = renumbered(t.registered.network);
        const replaced = await up(topology.host, t, { ...t.registered, network }, { replaceOnChanges: ["network.subnet"] });
        assert.equal(replaced.engine!.detailedDiff!["network.subnet"], "update-replace");
        assert.equal(replaced.engine!.detailedDiff!["network.router.ip"], "update");
        assert.equal(replaced.action, "replace");
        await assertNodeNetwork(topology.env.nb, { ...node, ...network });
        assert.notDeepEqual(await switchUuid(), uuid, "the switch was deleted and created again");
        const back = await up(topology.host, t, t.registered, { replaceOnChanges: ["network.switchName"] });
        assert.equal(back.action, "update");
        await assertNodeNetwork(topology.env.nb, node);
    });

    it("ignoreChanges on an NB setting: that setting keeps its old value, the others change", async () => {
        const network = {
            ...t.registered.network,
            router: { ...t.registered.network.router, mac: "0a:58:c0:a8:02:99" },
            mgmt: { ...t.registered.network.mgmt, mac: "0a:58:c0:a8:02:98" },
        };
        const { action, engine } = await up(topology.host, t, { ...t.registered, network }, { ignoreChanges: ["network.router.mac"] });
        assert.deepEqual(engine!.detailedDiff, { "network.mgmt.mac": "update" });
        assert.equal(action, "update");
        assert.equal(t.checked!.network.router.mac, node.router.mac);
        await assertNodeNetwork(topology.env.nb, { ...node, mgmt: network.mgmt });
        const ignored = await up(topology.host, t, { ...t.registered, network }, { ignoreChanges: ["network.router.mac"] });
        assert.deepEqual([ignored.action, ignored.diff!.changes], ["same", DIFF_NONE]);
        assert.equal((await up(topology.host, t)).action, "update");
        await assertNodeNetwork(topology.env.nb, node);
    });

    it("a renamed node is still the provider's replacement, deleting first", async () => {
        const network = { ...t.registered.network, node: "kube-minion9", switchName: "kube-minion9" };
        const { action, diff } = await up(topology.host, t, { ...t.registered, network });
        assert.deepEqual(diff, { changes: DIFF_SOME, replaces: ["network"], deleteBeforeReplace: true });
        assert.equal(action, "replace");
        assert.deepEqual(await findColumn(topology.env.nb, "Logical_Switch", "name", "external_ids:pulumi-group=node/kube-minion9"), [
            "kube-minion9",
        ]);
        assert.deepEqual(await switchUuid(), []);
    });
});
