// A running ovnkube-mode cluster's release goes forward only and keeps its architecture: the
// guards' refusal, pure, with what it names.
import assert from "node:assert/strict";
import { test } from "node:test";
import { releaseChangeRefusal } from "../../components/guard/releaseChanges";

const ic = (version: string) => ({ version, architecture: "interconnect" });

test("an upgrade, the same release and a first record pass", () => {
    assert.equal(releaseChangeRefusal(ic("1.2"), ic("1.3")), undefined);
    assert.equal(releaseChangeRefusal(ic("1.3"), ic("1.3")), undefined);
    // State written before the guards recorded a release, and Pulumi mode, record none.
    assert.equal(releaseChangeRefusal(undefined, ic("1.3")), undefined);
    assert.equal(releaseChangeRefusal(ic("1.3"), undefined), undefined);
});

test("going back a release is refused, naming both and what to do", () => {
    const why = releaseChangeRefusal(ic("1.3"), ic("1.2"))!;
    assert.match(why, /^ovnkube\.version 1\.3 → 1\.2 stopped before anything was changed: ovn-kubernetes upgrades forward only/);
    assert.match(why, /Keep 1\.3, or create the cluster anew with 1\.2/);
});

test("another architecture is refused, naming both and the documented way", () => {
    const why = releaseChangeRefusal(ic("1.3"), { version: "1.3", architecture: "centralized" })!;
    assert.match(why, /^ovnkube\.architecture interconnect → centralized stopped before anything was changed/);
    assert.match(why, /removed its zone migration in 1\.3/);
    assert.match(why, /pulumi destroy \(drain first\), then pulumi up with ovnkube\.architecture: centralized/);
    // Also together with an upgrade: the architecture is named first.
    assert.match(
        releaseChangeRefusal({ version: "1.2", architecture: "centralized" }, ic("1.3"))!,
        /^ovnkube\.architecture centralized → interconnect/,
    );
});

test("another gateway mode is refused, naming both and the way to get it; state recorded before the setting ran shared", () => {
    const local = { ...ic("1.3"), gatewayMode: "local" };
    const why = releaseChangeRefusal({ ...ic("1.3"), gatewayMode: "shared" }, local)!;
    assert.match(
        why,
        /^ovnkube\.gatewayMode shared → local stopped before anything was changed: ovn-kubernetes documents no switch of a running cluster's gateway mode/,
    );
    assert.match(
        why,
        /Keep shared, or create the cluster anew: pulumi destroy \(drain first\), then pulumi up with ovnkube\.gatewayMode: local/,
    );
    assert.match(releaseChangeRefusal(local, ic("1.3"))!, /^ovnkube\.gatewayMode local → shared/);
    // Recorded before the setting: shared, the only mode then; the same mode passes.
    assert.equal(releaseChangeRefusal(ic("1.3"), { ...ic("1.3"), gatewayMode: "shared" }), undefined);
    assert.match(releaseChangeRefusal(ic("1.3"), local)!, /shared → local/);
    assert.equal(releaseChangeRefusal(local, { ...local }), undefined);
});

test("the ChangeGuard's diff, which every preview runs first, refuses a gateway mode change with that text", async () => {
    const { changeGuardProvider } = await import("../../components/guard/changeGuard");
    const record = (gatewayMode?: string) => ({
        owner: "p/s",
        groups: [],
        hosts: [],
        centrals: [],
        ovnkube: { ...ic("1.3"), ...(gatewayMode ? { gatewayMode } : {}) },
    });
    await assert.rejects(
        changeGuardProvider.diff!("p/s", record("shared"), record("local")),
        /^Error: ovnkube\.gatewayMode shared → local stopped before anything was changed/,
    );
    // State recorded before the setting, on a stack that keeps the default: a rewrite of the record, no refusal.
    assert.deepEqual(await changeGuardProvider.diff!("p/s", record(), record("shared")), { changes: true });
    assert.deepEqual(await changeGuardProvider.diff!("p/s", record("local"), record("local")), { changes: false });
});

test("the address families: none added, removed or reordered in place; IPv4 records without the key are IPv4", () => {
    const v4 = { version: "1.3", architecture: "interconnect" };
    const dual = { ...v4, ipFamilies: ["ipv4", "ipv6"] };
    assert.equal(releaseChangeRefusal(v4, { ...v4, ipFamilies: ["ipv4"] }), undefined);
    assert.equal(releaseChangeRefusal(dual, { ...dual }), undefined);
    assert.match(
        releaseChangeRefusal(v4, dual)!,
        /^the address families ipv4 → ipv4 and ipv6 \(clusterSubnet\) stopped before anything was changed: .*node_allocator\.go/,
    );
    assert.match(releaseChangeRefusal(dual, v4)!, /ipv4 and ipv6 → ipv4 .* Keep ipv4 and ipv6, or create the cluster anew/);
    assert.match(releaseChangeRefusal(dual, { ...v4, ipFamilies: ["ipv6", "ipv4"] })!, /ipv4 and ipv6 → ipv6 and ipv4/);
});

test("moving OVN between the hosts' packages and the image is refused both ways, naming both; records without a source ran packages", () => {
    const image = { ...ic("1.3"), ovnSource: "image" };
    const why = releaseChangeRefusal(ic("1.3"), image)!;
    assert.match(why, /^ovnkube\.ovnSource packages → image stopped before anything was changed/);
    assert.match(why, /pulumi destroy \(drain first\), then pulumi up with ovnkube\.ovnSource: image/);
    assert.match(releaseChangeRefusal(image, ic("1.3"))!, /^ovnkube\.ovnSource image → packages/);
    assert.equal(releaseChangeRefusal(image, { ...image }), undefined);
    assert.equal(releaseChangeRefusal(ic("1.3"), { ...ic("1.3"), ovnSource: "packages" }), undefined);
});
