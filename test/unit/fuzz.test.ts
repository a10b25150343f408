// The fuzzer in the suite (test/support/fuzz.ts; `npm run fuzz` runs it longer): a fixed seed, so
// a failure here is the same case every time and names it.
import assert from "node:assert/strict";
import { test } from "node:test";
import { runFuzz, withMocks } from "../support/fuzz";

const SEED = 20261126;

test("300 cases: validate throws nothing but ConfigError naming config paths; what it accepts renders with disjoint ranges", async () => {
    const r = await runFuzz(300, undefined, SEED);
    // The properties are only worth something if both outcomes occur often.
    assert.ok(r.accepted >= 60 && r.accepted <= 240, `${r.accepted} of 300 accepted`);
    // Both families: dual-stack configs are accepted too, and go through the same properties.
    assert.ok(r.dualStack >= 10, `${r.dualStack} of the ${r.accepted} accepted are dual stack`);
});

test("12 cases through the cluster component under mocks: every accepted config registers without a failure", async () => {
    const r = await runFuzz(12, await withMocks(), SEED + 1);
    assert.ok(r.accepted >= 3, `${r.accepted} of 12 accepted`);
    assert.ok(r.registered > r.accepted * 40, `${r.registered} resources for ${r.accepted} configs`);
});
