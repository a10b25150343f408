// The offline apply with a dynamic provider that leaves its diff to the engine (DIFF_UNKNOWN):
// preview names the changed property by path, ignoreChanges keeps a property's old value, and
// replaceOnChanges replaces on a nested property, as the engine does (lab/offline/engineDiff).
// The steps build on each other, in order.
import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { after, before, test } from "node:test";
import { apply, preview, type OperationResult } from "../../lab/offline/api";
import { startFixture, type Fixture } from "./fixtureStack";

let f: Fixture;
before(async () => {
    f = await startFixture();
});
after(async () => {
    await f?.cleanup();
});

type Values = Parameters<Fixture["write"]>[0];
async function run(op: typeof apply, values: Values): Promise<OperationResult> {
    f.write(values);
    const r = await op(f.options());
    assert.equal(r.ok, true, r.error);
    return r;
}
const tunables = (r: OperationResult) => r.ops.find((o) => o.name === "tunables")!;
/** What the provider did, in order: [create|update, settings]. */
const log = () =>
    fs
        .readFileSync(path.join(f.hostDir, "tunables.log"), "utf8")
        .trim()
        .split("\n")
        .map((line) => [line.split(" ")[0], JSON.parse(line.slice(line.indexOf(" ") + 1))]);
const first = { router: { mac: "0a:58:00:00:00:01", ip: "10.0.0.1" }, subnet: "10.0.0.0/24" };

test("created, then a nested change previewed: the DetailedDiff names it, and nothing runs", async () => {
    assert.equal(tunables(await run(apply, { settings: first })).op, "create");
    const r = await run(preview, { settings: { ...first, router: { ...first.router, mac: "0a:58:00:00:00:02" } } });
    assert.deepEqual(tunables(r), { ...tunables(r), op: "update", keys: ["settings"], detailedDiff: { "settings.router.mac": "update" } });
    assert.deepEqual(log(), [["create", first]]);
});

test("ignoreChanges on the nested property: no change, its old value stays; another change goes through without it", async () => {
    const changed = { ...first, router: { ...first.router, mac: "0a:58:00:00:00:02" } };
    assert.equal(tunables(await run(apply, { settings: changed, ignore: ["settings.router.mac"] })).op, "same");
    const r = await run(apply, { settings: { ...changed, subnet: "10.0.1.0/24" }, ignore: ["settings.router.mac"] });
    assert.deepEqual([tunables(r).op, tunables(r).detailedDiff], ["update", { "settings.subnet": "update" }]);
    assert.deepEqual(log().at(-1), ["update", { ...first, subnet: "10.0.1.0/24" }]);
});

test("replaceOnChanges on a nested object: a change under it replaces, a change elsewhere updates", async () => {
    const base = { ...first, subnet: "10.0.1.0/24" };
    const r = await run(apply, { settings: { ...base, router: { ...base.router, ip: "10.0.1.1" } }, replaceOn: ["settings.router"] });
    assert.deepEqual([tunables(r).op, tunables(r).detailedDiff], ["replace", { "settings.router.ip": "update-replace" }]);
    assert.deepEqual(log().at(-1), ["create", { ...base, router: { ...base.router, ip: "10.0.1.1" } }]);
    const u = await run(apply, {
        settings: { ...base, router: { ...base.router, ip: "10.0.1.1" }, subnet: "10.0.2.0/24" },
        replaceOn: ["settings.router"],
    });
    assert.deepEqual([tunables(u).op, tunables(u).detailedDiff], ["update", { "settings.subnet": "update" }]);
});
