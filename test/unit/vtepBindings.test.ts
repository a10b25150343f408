// The VTEP bindings' pure part: what `vtep-ctl list-bindings` prints, read back, and the one
// transaction that turns the bindings present into the declared ones (its effects on a real VTEP
// database: test/e2e/vtep.test.ts).
import assert from "node:assert/strict";
import { test } from "node:test";
import { convergeCommand, listBindingsCommand, parseBindings } from "../../components/hosts/vtepBindings";

const b = (port: string, vlan: number, logicalSwitch: string) => ({ port, vlan, logicalSwitch });

test("list-bindings output of several ports reads back as bindings in a stable order, VLANs without their zeros", () => {
    assert.equal(
        listBindingsCommand("tor1", ["eth1", "eth2"]),
        "echo 'port eth1' && vtep-ctl list-bindings 'tor1' 'eth1' && echo 'port eth2' && vtep-ctl list-bindings 'tor1' 'eth2'",
    );
    assert.deepEqual(parseBindings("port eth2\n0007 node2\nport eth1\n0200 node2\n0100 node1\n"), [
        b("eth1", 100, "node1"),
        b("eth1", 200, "node2"),
        b("eth2", 7, "node2"),
    ]);
    assert.deepEqual(parseBindings("port eth1\nport eth2\n"), []);
});

test("a line that is no binding, or a binding before any port, is an error naming the line", () => {
    assert.throws(() => parseBindings("port eth1\nvtep-ctl: no port\n"), /unexpected vtep-ctl list-bindings line "vtep-ctl: no port"/);
    assert.throws(() => parseBindings("0100 node1\n"), /unexpected vtep-ctl list-bindings line "0100 node1"/);
});

test("the declared bindings already present need no command", () => {
    assert.equal(convergeCommand("tor1", [b("eth1", 100, "node1")], [b("eth1", 100, "node1")]), undefined);
    assert.equal(convergeCommand("tor1", [], []), undefined);
});

test("a missing binding is bound in one transaction with its logical switch added", () => {
    assert.equal(
        convergeCommand("tor1", [], [b("eth1", 100, "node1"), b("eth1", 200, "node1")]),
        "vtep-ctl -- --may-exist add-ls 'node1' -- bind-ls 'tor1' 'eth1' 100 'node1' -- bind-ls 'tor1' 'eth1' 200 'node1'",
    );
});

test("a VLAN bound to another switch is unbound and bound again in the same transaction; the switch no binding joins is deleted if OVN lets go", () => {
    assert.equal(
        convergeCommand("tor1", [b("eth1", 100, "node2")], [b("eth1", 100, "node1")]),
        "vtep-ctl -- unbind-ls 'tor1' 'eth1' 100 -- --may-exist add-ls 'node1' -- bind-ls 'tor1' 'eth1' 100 'node1' && " +
            "{ vtep-ctl --if-exists del-ls 'node2' 2>/dev/null || true; }",
    );
});

test("an undeclared binding is unbound; a switch another binding still joins stays", () => {
    assert.equal(
        convergeCommand("tor1", [b("eth1", 100, "node1"), b("eth1", 300, "node1")], [b("eth1", 100, "node1")]),
        "vtep-ctl -- unbind-ls 'tor1' 'eth1' 300",
    );
});
