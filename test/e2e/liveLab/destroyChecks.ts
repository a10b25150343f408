// Destroy checks, on the live lab once its own pods are gone and the demo's pods are placed:
// the destroy preview lists every blocker (each pod on its node switch) and deletes nothing;
// destroy refuses with the same list and deletes nothing either (every NB and SB row, every
// host's OVS, links and boot pieces, and the state as they were). After the demo's pod removal,
// destroy completes and leaves no NB row of the stack, no chassis, no bridge or port of ours.
import assert from "node:assert/strict";
import * as fs from "node:fs";
import { before, describe, test } from "node:test";
import { removePulumiDemoPods, startPulumiDemoPods } from "../../../lab/localcluster/demoPods";
import { stopPod, type LocalPod } from "../../../lab/localcluster";
import { destroy, type OperationResult } from "../../../lab/offline/api";
import { hostOut, sortedLines, type LiveLab } from "../../../lab/scenarios/liveChange";
import { nodeHostState, ovnRows } from "../../../lab/scenarios/nodeChange";

let lab: LiveLab;
let pods: LocalPod[];

/** Every host's OVS bridges and ports, links, and what the project keeps for it (management port, controller, boot pieces). */
async function hostsState() {
    const out: Record<string, unknown> = {};
    for (const h of lab.cluster.hosts) {
        const mgmt = lab.model.nodeNetworks.find((n) => n.node === h.name)?.mgmtInterface ?? "none";
        out[h.name] = {
            ...(await nodeHostState(lab, h.name, mgmt)),
            ovs: sortedLines(
                await hostOut(lab.cluster, h.name, [
                    "bash",
                    "-c",
                    'for b in $(ovs-vsctl list-br); do echo "$b"; ovs-vsctl list-ports "$b" | sed "s/^/$b /"; done',
                ]),
            ),
            links: sortedLines(await hostOut(lab.cluster, h.name, ["bash", "-c", "ip -o link show | cut -d: -f2 | cut -d@ -f1"])),
        };
    }
    return out;
}
const stateResources = (r: OperationResult) =>
    (JSON.parse(fs.readFileSync(r.statePath, "utf8")) as { resources: { urn: string }[] }).resources.map((x) => x.urn);
const podBlocker = (p: LocalPod) =>
    `NodeSwitch node/${p.node}: cannot delete: Logical_Switch row "switch" still holds Logical_Switch_Port ${p.ifaceId} (not created by Pulumi)`;

/** The destroy checks, last on the live lab: they end it. */
export function destroyChecks(live: () => LiveLab): void {
    describe("destroy", () => {
        before(async () => {
            lab = live();
            for (const p of lab.pods) await stopPod(lab.cluster, lab.model, p.node, p.namespace, p.pod);
            pods = await startPulumiDemoPods(lab.cluster, lab.model);
        });

        test("with the demo's pods, the destroy preview lists every blocker and destroy refuses with the same list, deleting nothing", async (t) => {
            const rows = await ovnRows(lab);
            const hosts = await hostsState();
            const seen = await destroy({ ...lab.options, dryRun: true });
            assert.equal(seen.ok, false);
            t.diagnostic(seen.error!);
            assert.match(seen.error!, /DestroyGuard ovn-destroy-guard: .*destroy stopped before deleting anything: 2 blocker\(s\):/s);
            for (const p of pods) assert.ok(seen.error!.includes(podBlocker(p)), seen.error);
            const resources = stateResources(seen);

            const refused = await destroy(lab.options);
            assert.equal(refused.ok, false);
            // The same list, and the guard is the only step tried.
            const listed = (e: string) => e.split("\n").filter((l) => l.startsWith("  - "));
            assert.deepEqual(listed(refused.error!), listed(seen.error!));
            assert.deepEqual(
                refused.ops.map((o) => [o.op, o.name, o.error !== undefined]),
                [["delete", "ovn-destroy-guard", true]],
            );
            assert.deepEqual(stateResources(refused), resources);
            assert.deepEqual(await ovnRows(lab), rows);
            assert.deepEqual(await hostsState(), hosts);
        });

        test("after the demo's pod removal, destroy completes and leaves nothing of the stack", async () => {
            assert.deepEqual(
                await removePulumiDemoPods(lab.cluster, lab.model),
                pods.map((p) => `${p.node}/${p.ifaceId}`),
            );
            const seen = await destroy({ ...lab.options, dryRun: true });
            assert.equal(seen.ok, true, seen.error);
            const r = await destroy(lab.options);
            assert.equal(r.ok, true, r.error);
            assert.deepEqual(stateResources(r), []);
            for (const h of lab.cluster.hosts) {
                const s = await nodeHostState(lab, h.name, lab.model.nodeNetworks.find((n) => n.node === h.name)?.mgmtInterface ?? "none");
                assert.deepEqual(s, { boundPorts: [], mgmtLink: [], mgmtOvsPort: [], controller: [], ovnSettings: [], pieces: [] }, h.name);
                const bridges = sortedLines(await hostOut(lab.cluster, h.name, ["bash", "-c", "ovs-vsctl list-br 2>/dev/null || true"]));
                assert.ok(!bridges.includes("breth0"), `${h.name}: ${bridges.join(" ")}`);
            }
            // The central is gone with the stack: nothing answers for NB or SB any more.
            const nb = await hostOut(lab.cluster, "node1", ["bash", "-c", "ovn-nbctl --timeout=3 show 2>&1 || true"]);
            assert.doesNotMatch(nb, /switch|router/);
        });
    });
}
