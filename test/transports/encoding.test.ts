// OVSDB value encoding: builders produce RFC 7047 forms, decoders accept every form servers send.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
    insert,
    isUuid,
    map,
    mapPairs,
    mapToRecord,
    namedUuid,
    optionalAtom,
    set,
    setAtoms,
    uuid,
    uuidText,
    uuidTexts,
    type Value,
} from "../../components/ovsdb";

const U1 = "907b1f49-7f6f-4784-9913-43c19257521e";
const U2 = "5d117e67-a409-4c6e-a006-9bcee56049b2";

/** Encoding through JSON text, as on the wire. */
function wire(value: Value): Value {
    return JSON.parse(JSON.stringify(value)) as Value;
}

describe("OVSDB encoding", () => {
    it("builds tagged uuid, named-uuid, set and map values", () => {
        assert.deepEqual(uuid(U1), ["uuid", U1]);
        assert.deepEqual(namedUuid("lsp_0"), ["named-uuid", "lsp_0"]);
        assert.deepEqual(set(["a", 1, true]), ["set", ["a", 1, true]]);
        assert.deepEqual(map({ "k8s-cluster-router": "yes" }), ["map", [["k8s-cluster-router", "yes"]]]);
        assert.deepEqual(map([["a", uuid(U1)]]), ["map", [["a", ["uuid", U1]]]]);
        assert.deepEqual(set([]), ["set", []]);
        assert.deepEqual(map({}), ["map", []]);
    });

    it("round-trips sets, maps and references through JSON", () => {
        const ports = set([uuid(U1), uuid(U2)]);
        assert.deepEqual(uuidTexts(wire(ports)), [U1, U2]);
        const externalIds = map({ gateway_ip: "10.128.1.1/24", "k8s-cluster-router": "yes" });
        assert.deepEqual(mapToRecord(wire(externalIds)), { gateway_ip: "10.128.1.1/24", "k8s-cluster-router": "yes" });
        assert.deepEqual(mapPairs(wire(map([[1, uuid(U2)]]))), [[1, ["uuid", U2]]]);
        assert.equal(uuidText(wire(uuid(U1))), U1);
    });

    it("reads a one-element set sent bare, and an empty optional column", () => {
        assert.deepEqual(setAtoms(["uuid", U1]), [["uuid", U1]]);
        assert.deepEqual(uuidTexts(["uuid", U1]), [U1]);
        assert.deepEqual(setAtoms("dynamic"), ["dynamic"]);
        assert.deepEqual(setAtoms(["set", []]), []);
        assert.equal(optionalAtom(["set", []]), undefined);
        assert.equal(optionalAtom("udp"), "udp");
        assert.equal(optionalAtom(["set", ["udp"]]), "udp");
        assert.throws(() => optionalAtom(["set", ["a", "b"]]), /at most one element/);
    });

    it("tells uuid atoms from sets and maps", () => {
        assert.equal(isUuid(["uuid", U1]), true);
        assert.equal(isUuid(["named-uuid", "x"]), false);
        assert.equal(isUuid(["set", []]), false);
        assert.throws(() => setAtoms(["map", []]), /got a map/);
        assert.throws(() => mapPairs(["set", []]), /expected an OVSDB map/);
        assert.throws(() => mapToRecord(["map", [["a", 1]]]), /string-to-string/);
        assert.throws(() => uuidText("x"), /expected \["uuid"/);
    });

    it("refuses malformed UUIDs and uuid-names", () => {
        assert.throws(() => uuid("not-a-uuid"), /not a UUID/);
        assert.throws(() => namedUuid("1st"), /uuid-name/);
        assert.throws(() => namedUuid("rtos-node1"), /uuid-name/);
        assert.throws(() => insert("Logical_Switch", {}, "bad name"), /uuid-name/);
        assert.deepEqual(insert("Logical_Switch", { name: "join" }, "join_ls"), {
            op: "insert",
            table: "Logical_Switch",
            row: { name: "join" },
            "uuid-name": "join_ls",
        });
    });
});
