// The offline engine's port of the engine's own diff, ignoreChanges and replaceOnChanges
// (lab/offline/engineDiff, lab/offline/propertyPath), held to what pulumi/pulumi v3.259.0 does.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { applyReplaceOnChanges, inputDiff, isReplacement, processIgnoreChanges, resolveDiff } from "../../lab/offline/engineDiff";
import { parsePath, pathContains, pathString } from "../../lab/offline/propertyPath";
import { UNKNOWN_VALUE } from "../../lab/offline/sdk";
import { secret } from "../../lab/offline/values";

const DIFF_UNKNOWN = 0;
const DIFF_NONE = 1;
const DIFF_SOME = 2;
const reply = (changes: number, replaces: string[] = []) => ({ changes, replaces, deleteBeforeReplace: replaces.length > 0 });

describe("property paths, as PropertyPath.String and ParsePropertyPath", () => {
    it("a plain name after a dot, any other in brackets and quotes, indexes in brackets", () => {
        assert.equal(pathString(["network", "subnet"]), "network.subnet");
        assert.equal(pathString(["rows", "Logical_Switch kube-master", "mac"]), 'rows["Logical_Switch kube-master"].mac');
        assert.equal(pathString(["gateway", "rampoutSubnets", 0]), "gateway.rampoutSubnets[0]");
        assert.equal(pathString(["a.b", 'say "hi"']), '["a.b"]["say \\"hi\\""]');
    });
    it("parses back what it writes, `*` included, and refuses a malformed path", () => {
        for (const path of [
            ["network", "subnet"],
            ["rows", "Logical_Switch kube-master", "mac"],
            ["gateway", "rampoutSubnets", 2],
            ['say "hi"', "x"],
        ])
            assert.deepEqual(parsePath(pathString(path)), path);
        assert.deepEqual(parsePath("triggers[*]"), ["triggers", "*"]);
        assert.deepEqual(parsePath("network.*"), ["network", "*"]);
        assert.throws(() => parsePath(".network"), /expected a name or index first/);
        assert.throws(() => parsePath('rows["open'), /missing closing quote/);
        assert.throws(() => parsePath("list[x]"), /invalid array index/);
    });
    it("a path contains itself and what is under it; `*` matches any name", () => {
        assert.ok(pathContains(["network"], ["network", "subnet"]));
        assert.ok(pathContains(["network", "subnet"], ["network", "subnet"]));
        assert.ok(!pathContains(["network", "subnet"], ["network"]));
        assert.ok(pathContains(["*"], ["owner"]));
        assert.ok(pathContains(["network", "*", "ip"], ["network", "router", "ip"]));
        assert.ok(!pathContains(["list", 1], ["list", 0]));
    });
});

describe("the engine's diff of inputs (DIFF_UNKNOWN)", () => {
    it("names each changed leaf by path, added and deleted keys by theirs; null is no value", () => {
        const olds = { network: { subnet: "10.0.1.0/24", router: { ip: "10.0.1.1" }, gone: "x" }, owner: "o", empty: null };
        const news = { network: { subnet: "10.0.2.0/24", router: { ip: "10.0.1.1" }, extra: "y" }, owner: "o", empty: null, version: "4" };
        assert.deepEqual(inputDiff(olds, news), {
            changedKeys: ["network", "version"],
            detailedDiff: { "network.subnet": "update", "network.gone": "delete", "network.extra": "add", version: "add" },
        });
    });
    it("arrays element by element: a longer array adds at the new indexes, a shorter one deletes", () => {
        assert.deepEqual(inputDiff({ l: ["a", "b"] }, { l: ["a", "c", "d"] }).detailedDiff, { "l[1]": "update", "l[2]": "add" });
        assert.deepEqual(inputDiff({ l: ["a", "b"] }, { l: ["a"] }).detailedDiff, { "l[1]": "delete" });
    });
    it("a secret is compared by what it wraps and is a leaf; becoming secret is a change; an unknown differs from any value", () => {
        assert.deepEqual(inputDiff({ nb: secret({ key: "k" }) }, { nb: secret({ key: "k" }) }).changedKeys, []);
        assert.deepEqual(inputDiff({ nb: secret({ key: "k" }) }, { nb: secret({ key: "j" }) }).detailedDiff, { nb: "update" });
        assert.deepEqual(inputDiff({ nb: { key: "k" } }, { nb: secret({ key: "k" }) }).detailedDiff, { nb: "update" });
        assert.deepEqual(inputDiff({ systemId: "a" }, { systemId: UNKNOWN_VALUE }).detailedDiff, { systemId: "update" });
    });
});

describe("ignoreChanges, as processIgnoreChanges", () => {
    const olds = { network: { subnet: "10.0.1.0/24", mgmt: { ip: "10.0.1.2" } }, list: [1, 2], nb: secret({ user: "a" }) };
    it("sets a nested path back to the old value and leaves the rest new", () => {
        const news = { network: { subnet: "10.0.2.0/24", mgmt: { ip: "10.0.2.2" } }, list: [1, 2], nb: secret({ user: "a" }) };
        const { inputs, invalid } = processIgnoreChanges(news, olds, ["network.subnet"]);
        assert.deepEqual(inputs.network, { subnet: "10.0.1.0/24", mgmt: { ip: "10.0.2.2" } });
        assert.deepEqual(invalid, []);
        assert.equal(news.network.subnet, "10.0.2.0/24", "the inputs given are not changed");
    });
    it("`*` resets every member; a name absent before is removed; secrecy of the old value is kept", () => {
        assert.deepEqual(
            processIgnoreChanges({ network: { subnet: "s", mgmt: { ip: "i" }, extra: 1 } }, olds, ["network.*"]).inputs.network,
            olds.network,
        );
        assert.deepEqual(processIgnoreChanges({ owner: "x" }, olds, ["owner"]).inputs, {});
        assert.deepEqual(processIgnoreChanges({ nb: { user: "b" } }, olds, ["nb.user"]).inputs.nb, { user: secret("a") });
    });
    it("an element added or removed cannot be ignored: reported, and the new value stays; a malformed path is skipped", () => {
        const { inputs, invalid } = processIgnoreChanges({ list: [1, 3, 4] }, olds, ["list[2]", "[oops"]);
        assert.deepEqual(inputs.list, [1, 3, 4]);
        assert.deepEqual(invalid, ["list[2]"]);
    });
});

describe("diffResource and applyReplaceOnChanges", () => {
    const olds = { network: { node: "n1", subnet: "10.0.1.0/24" }, owner: "o" };
    const news = { network: { node: "n1", subnet: "10.0.2.0/24" }, owner: "o" };
    it("DIFF_NONE and DIFF_SOME are taken as they are, without a DetailedDiff", () => {
        assert.deepEqual(resolveDiff(reply(DIFF_NONE), olds, news), {
            changes: false,
            changedKeys: [],
            replaceKeys: [],
            deleteBeforeReplace: false,
        });
        assert.deepEqual(resolveDiff(reply(DIFF_SOME), olds, olds), {
            changes: true,
            changedKeys: [],
            replaceKeys: [],
            deleteBeforeReplace: false,
        });
    });
    it("DIFF_UNKNOWN: the engine diffs the inputs; with the changed path ignored there is no change", () => {
        const d = resolveDiff(reply(DIFF_UNKNOWN), olds, news);
        assert.deepEqual(d, {
            changes: true,
            changedKeys: ["network"],
            detailedDiff: { "network.subnet": "update" },
            replaceKeys: [],
            deleteBeforeReplace: false,
        });
        assert.equal(resolveDiff(reply(DIFF_UNKNOWN), olds, news, ["network.subnet"]).changes, false);
        assert.equal(resolveDiff(reply(DIFF_UNKNOWN), olds, olds).changes, false);
    });
    it("replaceOnChanges turns the DetailedDiff entries under its paths, and changed keys it contains, into replacements", () => {
        const d = resolveDiff(reply(DIFF_UNKNOWN), olds, news);
        const nested = applyReplaceOnChanges(d, ["network.subnet"]);
        assert.deepEqual(
            [nested.detailedDiff, nested.replaceKeys, isReplacement(nested)],
            [{ "network.subnet": "update-replace" }, [], true],
        );
        const top = applyReplaceOnChanges(d, ["network"]);
        assert.deepEqual([top.detailedDiff, top.replaceKeys], [{ "network.subnet": "update-replace" }, ["network"]]);
        assert.ok(isReplacement(applyReplaceOnChanges(d, ["*"])));
        assert.ok(!isReplacement(applyReplaceOnChanges(d, ["network.node", "owner"])));
    });
    it("without a DetailedDiff or ChangedKeys (DIFF_SOME from a dynamic provider) replaceOnChanges has nothing to act on", () => {
        assert.ok(!isReplacement(applyReplaceOnChanges(resolveDiff(reply(DIFF_SOME), olds, news), ["network"])));
    });
});
