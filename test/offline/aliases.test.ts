// The alias URNs the offline engine seeks a registration under, against the engine's rules
// (pulumi pkg/resource/deploy/step_generator.go: collapseAliasToUrn, generateAliases).
import assert from "node:assert/strict";
import { test } from "node:test";
import { aliasUrns, type AliasScope } from "../../lab/offline/aliases";

const STACK_URN = "urn:pulumi:dev::proj::pulumi:pulumi:Stack::proj-dev";
const spec = (s: Partial<{ name: string; type: string; parentUrn: string; noParent: boolean }>) => ({
    name: "",
    type: "",
    stack: "",
    project: "",
    parentUrn: "",
    noParent: false,
    ...s,
});
const scope = (moved: Record<string, string> = {}): AliasScope => ({ stack: "dev", project: "proj", aliasedFrom: (u) => moved[u] });

test("an alias to an old parent gives the URN under that parent's type chain; no parent gives the top level", () => {
    const reg = { name: "n1-ovs", type: "command:remote:Command", parent: "urn:pulumi:dev::proj::ovn:index:Cluster::ovn" };
    assert.deepEqual(aliasUrns(reg, [spec({ parentUrn: "urn:pulumi:dev::proj::ovn:index:Cluster$ovn:hosts:Chassis::n1" })], scope()), [
        "urn:pulumi:dev::proj::ovn:index:Cluster$ovn:hosts:Chassis$command:remote:Command::n1-ovs",
    ]);
    assert.deepEqual(aliasUrns(reg, [spec({ noParent: true })], scope()), ["urn:pulumi:dev::proj::command:remote:Command::n1-ovs"]);
    assert.deepEqual(aliasUrns({ ...reg, parent: STACK_URN }, [spec({ name: "old" })], scope()), [
        "urn:pulumi:dev::proj::command:remote:Command::old",
    ]);
    assert.deepEqual(aliasUrns(reg, [{ urn: "urn:pulumi:dev::proj::x:y:Z::given" }], scope()), ["urn:pulumi:dev::proj::x:y:Z::given"]);
});

test("a child of a parent found by an alias is also sought under the parent's old URN, its name's prefix renamed with it", () => {
    const parent = "urn:pulumi:dev::proj::ovn:index:Cluster::new";
    const moved = { [parent]: "urn:pulumi:dev::proj::ovn:legacy:Cluster::old" };
    assert.deepEqual(aliasUrns({ name: "new-guard", type: "t:m:G", parent }, [], scope(moved)), [
        "urn:pulumi:dev::proj::ovn:legacy:Cluster$t:m:G::old-guard",
    ]);
    // An alias naming the (new) parent stands for the parent's old URN.
    assert.deepEqual(aliasUrns({ name: "x", type: "t:m:G", parent: STACK_URN }, [spec({ parentUrn: parent })], scope(moved)), [
        "urn:pulumi:dev::proj::ovn:legacy:Cluster$t:m:G::x",
    ]);
});
