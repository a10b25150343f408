// Reading a transaction's outcome, pure: a count other than the one a step relies on is an error
// naming the row (the provider then records nothing), a failed guard names the row it guarded.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { committedRows, concurrentChange } from "../../components/nb/transact/commit";
import type { Step } from "../../components/nb/transact/guards";
import { unclaimed } from "../../components/nb/transact/guards";
import { uuid } from "../../components/ovsdb/encoding";
import { deleteRows, insert, mutate, update, where } from "../../components/ovsdb/operations";

const U = "6c1f3f2e-6a8d-4c43-9f3c-0e2d6f0a1b2c";
const port = { table: "Logical_Switch_Port" as const, key: "mgmt-port", name: "k8s-node1", uuid: U };
const byUuid = [where("_uuid", "==", uuid(U))];

describe("commit outcome", () => {
    const steps: Step[] = [
        { op: insert("Logical_Switch_Port", { name: "k8s-node2" }, "row0"), inserts: "mgmt-port" },
        { op: update("Logical_Switch_Port", byUuid, { addresses: "unknown" }), counts: { row: port, rule: "one" } },
        { op: mutate("Logical_Switch", [where("ports", "includes", uuid(U))], []), counts: { row: port, rule: "some" } },
    ];

    it("returns each inserted row's UUID when every count is as relied on", () => {
        assert.deepEqual(committedRows(steps, [{ uuid: uuid(U) }, { count: 1 }, { count: 2 }]), { "mgmt-port": U });
    });

    it("a count other than relied on is an error naming the row", () => {
        assert.throws(
            () => committedRows(steps, [{ uuid: uuid(U) }, { count: 0 }, { count: 1 }]),
            new RegExp(
                `^Error: update of Logical_Switch_Port row "mgmt-port" \\(k8s-node1, uuid ${U}\\) matched 0 rows, expected exactly 1: .*the state is unchanged`,
            ),
        );
        assert.throws(
            () => committedRows(steps, [{ uuid: uuid(U) }, { count: 1 }, { count: 0 }]),
            /mutate of Logical_Switch_Port row "mgmt-port" .* matched 0 rows, expected at least 1/,
        );
        const del: Step[] = [
            { op: deleteRows("Logical_Switch", byUuid), counts: { row: { ...port, table: "Logical_Switch", key: "switch" }, rule: "one" } },
        ];
        assert.throws(() => committedRows(del, [{ count: 2 }]), /delete of Logical_Switch row "switch" .* matched 2 rows/);
    });

    it("a failed wait names the row it guarded; other failures are left as they are", () => {
        const guarded: Step[] = [{ op: steps[1].op, guards: { row: port } }, unclaimed("Logical_Switch", "o/s", "node/n", "switch")];
        const timedOut = (index: number) => ({ name: "OvsdbOperationError", error: "timed out", index });
        assert.match(
            concurrentChange(guarded, timedOut(0))!.message,
            new RegExp(
                `^Logical_Switch_Port row "mgmt-port" \\(k8s-node1, uuid ${U}\\) was changed or deleted by another writer after it was read: nothing was applied`,
            ),
        );
        assert.match(
            concurrentChange(guarded, timedOut(1))!.message,
            /^another writer created a row carrying the tags of Logical_Switch row "switch" after it was read/,
        );
        assert.equal(concurrentChange(guarded, { name: "OvsdbCommitError", error: "constraint violation" }), undefined);
    });
});
