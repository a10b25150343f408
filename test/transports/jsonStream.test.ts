// The unframed JSON stream splitter: every split point, strings holding brackets and escapes.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { JsonValueSplitter } from "../../components/ovsdb/jsonStream";

const messages = [
    { id: 1, result: [{ rows: [{ name: "a}b{c", external_ids: ["map", [["k", "]["]]] }] }], error: null },
    { id: "echo", method: "echo", params: [] },
    { id: 2, result: [{ details: 'quote " and backslash \\ and \\" and {"nested": [1]}', error: "x" }], error: null },
    [1, "[", { "}": "{" }],
    { id: 3, result: ["ünïcödé ✓ 🚀 \u0000 \n"], error: null },
];
const text = messages.map((m) => JSON.stringify(m)).join("\n ") + "\t";

describe("JsonValueSplitter", () => {
    it("yields each value of a stream split at every possible point", () => {
        for (let cut = 0; cut <= text.length; cut++) {
            const splitter = new JsonValueSplitter();
            const values = [...splitter.push(text.slice(0, cut)), ...splitter.push(text.slice(cut))];
            assert.deepEqual(
                values.map((v) => JSON.parse(v)),
                messages,
                `split at ${cut}`,
            );
            assert.equal(splitter.partial, false);
        }
    });

    it("yields each value when fed one character at a time", () => {
        const splitter = new JsonValueSplitter();
        const values: string[] = [];
        for (const c of text) values.push(...splitter.push(c));
        assert.deepEqual(
            values.map((v) => JSON.parse(v)),
            messages,
        );
    });

    it("holds back an unfinished value", () => {
        const splitter = new JsonValueSplitter();
        assert.deepEqual(splitter.push('{"a":"}"'), []);
        assert.equal(splitter.partial, true);
        assert.deepEqual(splitter.push("}{"), ['{"a":"}"}']);
        assert.equal(splitter.partial, true);
    });

    it("refuses a stream that does not start a JSON-RPC message", () => {
        assert.throws(() => new JsonValueSplitter().push('  "text"'), /expected "\{" or "\["/);
    });
});
