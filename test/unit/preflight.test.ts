// The provider shape of checks that refuse at preview (dynamic/preflight): what check, create,
// update and diff do with a refusal, an unreachable host and a connection lost mid-read.
import assert from "node:assert/strict";
import { test } from "node:test";
import { preflightProvider } from "../../components/dynamic/preflight";

const inputs = { node: "node2", mtu: 1500 };

function provider(answers: Array<string | undefined | Error>) {
    let calls = 0;
    const p = preflightProvider({
        property: "mtu",
        keys: ["mtu"],
        id: (i) => i.node,
        refusal: async () => {
            const a = answers[Math.min(calls++, answers.length - 1)];
            if (a instanceof Error) throw a;
            return a;
        },
    });
    return { p, calls: () => calls };
}

test("check: a refusal is a failure on the property; an unreachable host passes, asked once", async () => {
    assert.deepEqual(await provider(["too big"]).p.check!({}, inputs), { inputs, failures: [{ property: "mtu", reason: "too big" }] });
    assert.deepEqual(await provider([undefined]).p.check!({}, inputs), { inputs });
    const lost = provider([new Error("connection lost")]);
    assert.deepEqual(await lost.p.check!({}, inputs), { inputs });
    assert.equal(lost.calls(), 1);
});

test("create: a connection lost twice is asked again; the third answer counts", async () => {
    const twice = provider([new Error("connection lost"), new Error("connection lost"), undefined]);
    assert.deepEqual(await twice.p.create!(inputs), { id: "node2", outs: inputs });
    assert.equal(twice.calls(), 3);
    const refused = provider([new Error("connection lost"), "too big"]);
    await assert.rejects(refused.p.create!(inputs), /^Error: too big$/);
});

test("create and update fail with the connection's error after three lost attempts", async () => {
    const always = provider([new Error("connection lost")]);
    await assert.rejects(always.p.update!("node2", inputs, inputs), /connection lost/);
    assert.equal(always.calls(), 3);
});

test("diff: a change of a listed key only", async () => {
    const { p } = provider([undefined]);
    assert.deepEqual(await p.diff!("node2", inputs, { ...inputs, mtu: 1400 }), { changes: true });
    assert.deepEqual(await p.diff!("node2", inputs, { ...inputs, node: "other" }), { changes: false });
});
