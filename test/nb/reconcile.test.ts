// The reconciler, pure: desired rows and a live snapshot in, one transaction's operations out.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { clusterRow } from "../../components/nb/kinds/clusterRouter";
import { nodeSwitchRows, type NodeSwitchNb } from "../../components/nb/kinds/nodeSwitch";
import { ForeignChildrenError, reconcile } from "../../components/nb/transact/reconcile";
import { refId } from "../../components/nb/core/rows";
import { nodeGroup } from "../../components/nb/core/tags";
import { map, set, uuid } from "../../components/ovsdb/encoding";
import { devModel } from "../../lab/harness/env";
import { fakeUuid, foreignLive, liveFrom } from "./support/fakeLive";

const OWNER = "ovn-kubernetes/dev";
const network: NodeSwitchNb = devModel().nodeNetworks[0];
const group = nodeGroup(network.node);
const specs = nodeSwitchRows(OWNER, network);

/** The cluster rows a node group refers to, as live rows of the cluster group. */
function clusterRows() {
    return {
        [refId(clusterRow("ovn_cluster_router", "router"))]: foreignLive("Logical_Router", "router", {
            name: "ovn_cluster_router",
            ports: set([]),
        }),
        [refId(clusterRow("ovn_cluster_router", "lbTcp"))]: foreignLive("Load_Balancer", "lb-tcp"),
        [refId(clusterRow("ovn_cluster_router", "lbUdp"))]: foreignLive("Load_Balancer", "lb-udp"),
    };
}
/** Every node transaction opens with its comment and the waits that the cluster's rows it uses still exist. */
const CLUSTER_GUARDS = ["comment", "wait Load_Balancer", "wait Load_Balancer", "wait Logical_Router"];
const ops = (plan: ReturnType<typeof reconcile>) => plan.ops.map((o) => `${o.op} ${"table" in o ? o.table : ""}`.trim());

describe("reconcile", () => {
    it("creates a node group in one transaction: guards, inserts, the router port hung on the cluster router", () => {
        const foreign = clusterRows();
        const snapshot = { own: [], foreign: Object.fromEntries(Object.entries(foreign).map(([k, v]) => [k, [v]])) };
        const plan = reconcile(OWNER, group, specs, snapshot);
        assert.deepEqual(ops(plan), [
            ...CLUSTER_GUARDS,
            "wait Logical_Switch",
            "wait Logical_Router_Port",
            "wait Logical_Switch_Port",
            "wait Logical_Switch_Port",
            "insert Logical_Switch",
            "insert Logical_Router_Port",
            "insert Logical_Switch_Port",
            "insert Logical_Switch_Port",
            "mutate Logical_Router",
        ]);
        // No row may claim a key between the read and the insert.
        assert.deepEqual((plan.ops[7] as any).where, [
            ["external_ids", "includes", map({ "pulumi-owner": OWNER, "pulumi-group": group, "pulumi-row": "mgmt-port" })],
        ]);
        assert.deepEqual(
            { rows: (plan.ops[7] as any).rows, until: (plan.ops[7] as any).until, timeout: (plan.ops[7] as any).timeout },
            { rows: [], until: "==", timeout: 0 },
        );
        assert.deepEqual(
            plan.steps.filter((s) => s.inserts).map((s) => s.inserts),
            ["switch", "router-port", "switch-router-port", "mgmt-port"],
        );
        assert.deepEqual(plan.steps.at(-1)!.counts, {
            row: {
                table: "Logical_Router",
                key: "router",
                group: "cluster/ovn_cluster_router",
                name: "ovn_cluster_router",
                uuid: foreign[refId(clusterRow("ovn_cluster_router", "router"))].uuid,
            },
            rule: "one",
        });
        const sw = plan.ops[8] as any;
        assert.deepEqual(
            sw.row.ports,
            set([
                ["named-uuid", "row2"],
                ["named-uuid", "row3"],
            ]),
        );
        assert.deepEqual(
            sw.row.load_balancer,
            set([
                uuid(foreign[refId(clusterRow("ovn_cluster_router", "lbTcp"))].uuid),
                uuid(foreign[refId(clusterRow("ovn_cluster_router", "lbUdp"))].uuid),
            ]),
        );
        assert.deepEqual(
            sw.row.external_ids,
            map({ gateway_ip: "192.168.1.1/24", "pulumi-owner": OWNER, "pulumi-group": group, "pulumi-row": "switch" }),
        );
        const hang = plan.ops[12] as any;
        assert.deepEqual(hang.where, [["_uuid", "==", uuid(foreign[refId(clusterRow("ovn_cluster_router", "router"))].uuid)]]);
        assert.deepEqual(hang.mutations, [["ports", "insert", set([["named-uuid", "row1"]])]]);
        assert.deepEqual(plan.inserted, ["switch", "router-port", "switch-router-port", "mgmt-port"]);
    });

    it("emits nothing when NB already holds exactly the desired rows", () => {
        const plan = reconcile(OWNER, group, specs, liveFrom(group, specs, clusterRows()));
        assert.deepEqual(plan.ops, []);
    });

    it("updates only the differing column and mutates only the differing map key, keeping keys of others, each guarded on what was read", () => {
        const live = liveFrom(group, specs, clusterRows());
        const mgmt = live.own.find((r) => r.key === "mgmt-port")!;
        mgmt.row.addresses = set(["0a:58:00:00:00:01 192.168.1.99"]);
        const sw = live.own.find((r) => r.key === "switch")!;
        sw.row.other_config = map({ subnet: "10.0.0.0/24", mcast_snoop: "true" });
        const plan = reconcile(OWNER, group, specs, live);
        assert.deepEqual(ops(plan), [
            ...CLUSTER_GUARDS,
            "wait Logical_Switch",
            "wait Logical_Switch_Port",
            "mutate Logical_Switch",
            "update Logical_Switch_Port",
        ]);
        // The switch's guard: its UUID and every column the decision read, with the values read.
        assert.deepEqual(plan.ops[4], {
            op: "wait",
            table: "Logical_Switch",
            where: [["_uuid", "==", uuid(sw.uuid)]],
            columns: ["_uuid", "external_ids", "load_balancer", "name", "other_config"],
            until: "==",
            rows: [
                {
                    _uuid: uuid(sw.uuid),
                    external_ids: sw.row.external_ids,
                    load_balancer: sw.row.load_balancer,
                    name: sw.row.name,
                    other_config: sw.row.other_config,
                },
            ],
            timeout: 0,
        });
        assert.equal(plan.steps[5].guards!.row.uuid, mgmt.uuid);
        assert.deepEqual(
            plan.steps.slice(6).map((s) => [s.counts!.row.key, s.counts!.rule]),
            [
                ["switch", "one"],
                ["mgmt-port", "one"],
            ],
        );
        assert.deepEqual((plan.ops[7] as any).row, { addresses: set(["0a:58:c0:a8:01:02 192.168.1.2"]) });
        assert.deepEqual((plan.ops[6] as any).mutations, [
            ["other_config", "delete", set(["subnet"])],
            ["other_config", "insert", map({ subnet: "192.168.1.0/24" })],
        ]);
        assert.deepEqual(plan.updated, ["switch", "mgmt-port"]);
    });

    it("re-creates a port deleted by hand and hangs it on the existing switch", () => {
        const live = liveFrom(group, specs, clusterRows());
        live.own = live.own.filter((r) => r.key !== "mgmt-port");
        const plan = reconcile(OWNER, group, specs, live);
        const sw = live.own.find((r) => r.key === "switch")!;
        assert.deepEqual(plan.inserted, ["mgmt-port"]);
        const hang = plan.ops.find((o) => o.op === "mutate") as any;
        assert.deepEqual(hang.where, [["_uuid", "==", uuid(sw.uuid)]]);
    });

    it("removes left-over rows: roots by delete, non-roots from the set that holds them", () => {
        const live = liveFrom(group, specs, clusterRows());
        const oldSwitch = {
            uuid: fakeUuid(),
            table: "Logical_Switch" as const,
            key: "old-switch",
            row: { external_ids: map({}), ports: set([]) },
        };
        const stale = { uuid: fakeUuid(), table: "Logical_Switch_Port" as const, key: "old-port", row: {} };
        live.own.push(oldSwitch, stale);
        const plan = reconcile(OWNER, group, specs, live);
        assert.deepEqual(plan.removed.sort(), ["old-port", "old-switch"]);
        const del = plan.ops.find((o) => o.op === "delete") as any;
        assert.deepEqual(del.where, [["_uuid", "==", uuid(oldSwitch.uuid)]]);
        const unhang = plan.ops.filter((o) => o.op === "mutate").at(-1) as any;
        assert.deepEqual(unhang, {
            op: "mutate",
            table: "Logical_Switch",
            where: [["ports", "includes", uuid(stale.uuid)]],
            mutations: [["ports", "delete", uuid(stale.uuid)]],
        });
        assert.deepEqual(
            plan.steps.filter((s) => s.counts).map((s) => [s.counts!.row.key, s.counts!.rule]),
            [
                ["old-port", "some"],
                ["old-switch", "one"],
            ],
        );
    });

    it("two rows carrying one key's tags: refuses, naming both UUIDs, whichever sorts first", () => {
        const live = liveFrom(group, specs, clusterRows());
        const real = live.own.find((r) => r.key === "switch")!;
        const copy = "00000000-0000-4000-8000-000000000000"; // sorts before the real one
        live.own.push({ ...real, uuid: copy, row: { ...real.row, _uuid: uuid(copy), ports: set([]) } });
        assert.throws(
            () => reconcile(OWNER, group, specs, live),
            new RegExp(
                `Logical_Switch rows ${[real.uuid, copy].sort().join(" and ")} all carry the tags of row "switch".*Nothing was changed or deleted`,
            ),
        );
        assert.throws(() => reconcile(OWNER, group, [], live), /all carry the tags of row "switch"/);
    });

    it("with the UUIDs recorded, a copy of a row's tags is refused, and a recorded row that lost its tags is still the group's", () => {
        const live = liveFrom(group, specs, clusterRows());
        const real = live.own.find((r) => r.key === "switch")!;
        live.recorded = { switch: { table: "Logical_Switch", uuid: real.uuid, row: real } };
        const copy = fakeUuid();
        const forged = { ...real, uuid: copy, row: { ...real.row, _uuid: uuid(copy), ports: set([]) } };
        assert.throws(
            () => reconcile(OWNER, group, specs, { ...live, own: [...live.own, forged] }),
            new RegExp(`the row this resource created is ${real.uuid}, yet ${copy} carries its tags`),
        );
        // The recorded row is gone, another carries its tags: not adopted either.
        const gone = {
            ...live,
            own: [...live.own.filter((r) => r !== real), forged],
            recorded: { switch: { table: "Logical_Switch" as const, uuid: real.uuid } },
        };
        assert.throws(() => reconcile(OWNER, group, specs, gone), new RegExp(`\\(${real.uuid}\\) is gone, yet ${copy} carries its tags`));
        // Its tags removed by hand: found by UUID, kept, and its tags written back.
        const untagged = { ...real, key: "", row: { ...real.row, external_ids: map({ gateway_ip: "192.168.1.1/24" }) } };
        const plan = reconcile(OWNER, group, specs, {
            ...live,
            own: live.own.filter((r) => r !== real),
            recorded: { switch: { table: "Logical_Switch", uuid: real.uuid, row: untagged } },
        });
        assert.deepEqual(plan.inserted, []);
        assert.equal(plan.kept.switch, real.uuid);
        const retag = plan.ops.find((o) => o.op === "mutate" && o.table === "Logical_Switch") as any;
        assert.deepEqual(retag.where, [["_uuid", "==", uuid(real.uuid)]]);
        assert.deepEqual(retag.mutations, [
            ["external_ids", "insert", map({ "pulumi-owner": OWNER, "pulumi-group": group, "pulumi-row": "switch" })],
        ]);
    });

    it("deleting the group: the switch is deleted, the router port taken off the cluster router, nothing else", () => {
        const live = liveFrom(group, specs, clusterRows());
        const plan = reconcile(OWNER, group, [], { own: live.own, foreign: {} });
        assert.deepEqual(
            ops(plan)
                .filter((o) => o !== "comment")
                .sort(),
            [
                "delete Logical_Switch",
                "mutate Logical_Router",
                "mutate Logical_Switch",
                "mutate Logical_Switch",
                "wait Logical_Router_Port",
                "wait Logical_Switch",
                "wait Logical_Switch_Port",
                "wait Logical_Switch_Port",
            ],
        );
    });

    it("refuses to delete a root that holds rows of another group", () => {
        const live = liveFrom(group, specs, clusterRows());
        const sw = live.own.find((r) => r.key === "switch")!;
        const foreignPort = fakeUuid();
        sw.row.ports = set([...((sw.row.ports as any)[1] as never[]), uuid(foreignPort)]);
        assert.throws(
            () => reconcile(OWNER, group, [], { own: live.own, foreign: {} }),
            (err: unknown) => {
                assert.ok(err instanceof ForeignChildrenError);
                assert.deepEqual(
                    err.blocked.map((b) => [b.parent.key, b.children]),
                    [["switch", [{ table: "Logical_Switch_Port", uuid: foreignPort }]]],
                );
                return true;
            },
        );
    });

    it("names the missing row of another group", () => {
        assert.throws(
            () => reconcile(OWNER, group, specs, { own: [], foreign: {} }),
            /Load_Balancer row "lb-tcp" of group cluster\/ovn_cluster_router \(owner ovn-kubernetes\/dev\) is not in the Northbound database: create that resource first/,
        );
    });
});
