// The interconnect architecture as the plan says, on the shared cluster after its upgrade: a zone
// per node, each with its own NB, SB and northd on its host; every planned ovnkube pod running, one
// ovnkube per pod in the host's network namespace; each Node's zone label, node-id, transit address
// and subnets the planned ones; each zone's NB holding its node's switch and routers with the
// planned addresses of both families, and every other zone as a remote port on its transit switch.
// Then a hand-edited node-subnets annotation: refresh reports it, naming the node, and up undoes it.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { NODE_ID_ANNOTATION, NODE_SUBNETS_ANNOTATION, NODE_TRANSIT_ANNOTATION, ZONE_LABEL } from "../../../components/kube/objectNames";
import { IDENTITY } from "../../../components/kube/identity";
import { routerToTransit, TRANSIT_SWITCH } from "../../../components/model/names";
import { parseNetwork, subnetAt } from "../../../components/values";
import { pollUntil } from "../../../lab/kubeclient";
import { apply, refresh, type OperationResult } from "../../../lab/offline/api";
import { controlPlaneOf, plannedOvnkubePods, waitNodesReady, waitOvnkubePodsRunning } from "../../../lab/scenarios/ovnkubePods";
import { assertExploreCommandsWork } from "../support/exploreCommands";
import type { FamilyLab } from "../support/familyProof";
import { processesNamed } from "../support/hostDaemons";
import { assertNodeAsPlanned, plannedTransitAnnotation } from "../support/nodePlanProof";
import { zoneLab } from "./zoneLab";
import { phase } from "../support/phase";

/** The program's resource names for node2 (component `ovn`): its Node plan and its zone's expectation. */
const NODE2_PLAN = "ovn-ovnkube-node2-plan";
const NODE2_EXPECTATION = "ovn-expect-zone-node2";

const drift = (r: OperationResult) => r.drift.map((d) => `${d.name} [${d.keys.join(", ")}]`).sort();

export function zoneChecks(family: () => FamilyLab, labId: string): void {
    const { lab, model, zones, planOf, nbctlOf } = zoneLab(family);

    describe("a zone per node, as planned", () => {
        test("every planned ovnkube pod runs; each zone has its own NB, SB and northd, and holds its node's plan in both families", async () => {
            const hosts = lab().cluster.hosts.map((h) => h.name);
            assert.equal(model().architecture, "interconnect");
            assert.deepEqual(zones(), hosts);
            const running = await waitOvnkubePodsRunning(lab().admin, model().kube, 120_000);
            assert.deepEqual(
                running.map((p) => p.placement),
                plannedOvnkubePods(model().kube),
            );
            assert.ok(running.some((p) => p.placement.startsWith(`${controlPlaneOf(model().kube)}@`)));
            // Their containers share the host's network namespace (hostNetwork): one ovnkube per pod
            // (ovnkube-identity is its own binary); each zone its own northd.
            const ovnkubePods = running.filter((p) => !p.placement.startsWith(`${IDENTITY}@`));
            assert.deepEqual(
                processesNamed(lab().cluster, ["ovnkube"]),
                ovnkubePods.map((p) => `${p.placement.split("@")[1]}: ovnkube`).sort(),
            );
            assert.deepEqual(
                processesNamed(lab().cluster, ["ovn-northd"]),
                zones().map((z) => `${z}: ovn-northd`),
            );
            assert.deepEqual(await waitNodesReady(lab().admin, 60_000), hosts);

            for (const node of model().kube.nodes) {
                const zone = node.name;
                const nbctl = nbctlOf(zone);
                const live = await lab().admin.get({ apiVersion: "v1", kind: "Node", name: node.name });
                const annotations = live.metadata.annotations ?? {};
                assert.equal(live.metadata.labels?.[ZONE_LABEL], zone);
                assert.equal(annotations[NODE_ID_ANNOTATION], String(node.nodeId), `${node.name} keeps its planned node-id`);
                assert.deepEqual(JSON.parse(annotations[NODE_TRANSIT_ANNOTATION] ?? "{}"), plannedTransitAnnotation(node));
                assert.equal((await nbctl(["get", "NB_Global", ".", "name"])).replace(/^"(.*)"$/, "$1"), zone);
                await assertNodeAsPlanned(nbctl, node, annotations);
                assert.deepEqual(
                    JSON.parse(await nbctl(["get", "Logical_Router_Port", routerToTransit(node.name), "networks"])).sort(),
                    node.transit!.map((t) => t.cidr).sort(),
                );
                // Every other zone is a remote port on this zone's transit switch.
                const remote = (await nbctl(["--bare", "--columns=name", "find", "Logical_Switch_Port", "type=remote"]))
                    .split(/\s+/)
                    .filter(Boolean);
                assert.deepEqual(
                    remote.sort(),
                    hosts.filter((n) => n !== zone).map((n) => `tstor-${n}`),
                );
                assert.equal(await nbctl(["--bare", "--columns=name", "find", "Logical_Switch", `name=${TRANSIT_SWITCH}`]), TRANSIT_SWITCH);
            }
            // What the demo prints to explore: each zone's databases, inside its node.
            assert.equal((await assertExploreCommandsWork(labId, model())).length, 2 * hosts.length);
        });

        test("a hand-edited node-subnets annotation is reported by refresh, naming the node, and undone by up", async () => {
            await phase("annotation edited by hand, refresh, up", async () => {
                const planned = planOf("node2").subnets;
                // node2's IPv4 subnet moved to one no node has; its IPv6 subnet kept.
                const cluster = parseNetwork(model().clusterSubnets[0]);
                const prefix = parseNetwork(planned[0]).prefix;
                const used = new Set(model().kube.nodes.map((n) => n.subnets[0]));
                let i = 0;
                while (used.has(subnetAt(cluster, prefix, i).text)) i++;
                const moved = [subnetAt(cluster, prefix, i).text, ...planned.slice(1)];
                await lab().admin.patch(
                    { apiVersion: "v1", kind: "Node", name: "node2" },
                    { metadata: { annotations: { [NODE_SUBNETS_ANNOTATION]: JSON.stringify({ default: moved }) } } },
                    "merge",
                    { fieldManager: "e2e-by-hand" },
                );
                const seen = await refresh({ ...lab().offline, dryRun: true });
                assert.equal(seen.ok, true, seen.error);
                // The node's plan names it; its zone's rows may follow the annotation too.
                const drifted = drift(seen);
                assert.ok(drifted.includes(`${NODE2_PLAN} [metadata]`), `no drift of ${NODE2_PLAN} in ${JSON.stringify(drifted)}`);
                assert.deepEqual(
                    drifted.filter((d) => d !== `${NODE2_PLAN} [metadata]` && d !== `${NODE2_EXPECTATION} [rows]`),
                    [],
                );

                // `pulumi up --refresh`: the refresh takes in the drift, the update re-applies the plan.
                const fixed = await apply({ ...lab().offline, refresh: true });
                assert.equal(fixed.ok, true, fixed.error);
                assert.ok(
                    fixed.ops.some((o) => o.op === "update" && o.name === NODE2_PLAN),
                    JSON.stringify(fixed.ops.filter((o) => o.op !== "same")),
                );
                const annotations = (await lab().admin.get({ apiVersion: "v1", kind: "Node", name: "node2" })).metadata.annotations ?? {};
                assert.deepEqual(JSON.parse(annotations[NODE_SUBNETS_ANNOTATION]), { default: planned });
                await pollUntil(async () => (drift(await refresh({ ...lab().offline, dryRun: true })).length === 0 ? true : undefined), {
                    timeoutMs: 60_000,
                    intervalMs: 1000,
                    what: "node2's zone to follow its restored plan",
                });
            });
        });
    });
}
