// The live lab's first up, proven before any change: chassis registered with their encap IPs, the
// model's NB topology in place (the gateway router on its chassis, SNAT, the default route), the
// demo's explore commands run as printed on the central, every management port answering every
// node the moment the up returned, the two pods exchanging ping and TCP over Geneve and reaching the outside with SNAT; a
// second up changes nothing; a management port deleted by hand is reported by refresh and
// restored by the next up.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { desiredNorthbound } from "../../../components/render/northbound";
import { hostExec, ping } from "../../../lab/localcluster";
import { formatMatrix, formatReport, overlayReport } from "../../../lab/localcluster/checks";
import { apply, refresh, type OperationResult } from "../../../lab/offline/api";
import type { LiveLab } from "../../../lab/scenarios/liveChange";
import { assertExploreCommandsWork } from "../support/exploreCommands";

const changed = (r: OperationResult) => r.ops.filter((o) => o.op !== "same").map((o) => `${o.op} ${o.name}`);

export function firstUpChecks(live: () => LiveLab, labId: string): void {
    const sh = async (host: string, argv: string[]) => {
        const r = await hostExec(live().cluster, host, argv);
        assert.equal(r.code, 0, `${host}: ${argv.join(" ")}: ${r.stderr}`);
        return r.stdout;
    };
    const central = () => live().model.hosts.find((h) => h.isCentral)!.name;
    const nbNames = async (table: string) =>
        (await sh(central(), ["ovn-nbctl", "--bare", "--columns=name", "list", table])).split("\n").filter(Boolean).sort();

    describe("the first up", () => {
        test("on bare hosts: only creates; chassis registered with their encap IPs, the model's NB topology in place", async () => {
            const { cluster, model, first, options } = live();
            assert.equal(first.counts.updated + first.counts.replaced + first.counts.deleted, 0);

            const encaps = (await sh(central(), ["ovn-sbctl", "--bare", "--columns=ip", "find", "Encap", "type=geneve"]))
                .split("\n")
                .filter(Boolean)
                .sort();
            assert.deepEqual(encaps, cluster.hosts.map((h) => h.ip).sort());
            const systemIds = first.outputs.systemIds as Record<string, string>;
            const chassisNames = (await sh(central(), ["ovn-sbctl", "--bare", "--columns=name", "list", "Chassis"]))
                .split("\n")
                .filter(Boolean)
                .sort();
            assert.deepEqual(chassisNames, Object.values(systemIds).sort());

            // Every named row the model asks for exists, in its table.
            for (const group of desiredNorthbound(model, `ovn-kubernetes/${options.stack}`))
                for (const row of group.rows)
                    if (typeof row.columns.name === "string" && row.columns.name)
                        assert.ok((await nbNames(row.table)).includes(row.columns.name), `${row.table} ${row.columns.name}`);
            assert.deepEqual(await nbNames("Logical_Switch"), ["ext_node3", "join", "node1", "node2", "node3"]);
            const gw = model.gateways[0];
            assert.equal(
                (await sh(central(), ["ovn-nbctl", "get", "Logical_Router", gw.router, "options:chassis"])).trim().replace(/"/g, ""),
                systemIds.node3,
            );
            const nat = await sh(central(), ["ovn-nbctl", "lr-nat-list", gw.router]);
            assert.match(
                nat,
                new RegExp(`snat\\s+${gw.physical.ip.replace(/\./g, "\\.")}\\s+${model.clusterSubnets[0].replace(/[./]/g, "\\$&")}`),
            );
            const routes = await sh(central(), ["ovn-nbctl", "lr-route-list", model.clusterRouter.name]);
            assert.match(routes, new RegExp(`0\\.0\\.0\\.0/0\\s+${gw.join.ip.replace(/\./g, "\\.")}`));
        });

        test("the demo's explore commands work as printed: NB and SB shown on the central", async () => {
            assert.deepEqual(await assertExploreCommandsWork(labId, live().model), [
                `npm run local -- exec --id ${labId} node1 -- ovn-nbctl show`,
                `npm run local -- exec --id ${labId} node1 -- ovn-sbctl show`,
            ]);
        });

        test("the moment the up returned, every chassis had applied NB (hv_cfg = nb_cfg, bumped by each NB write) and every management port answered every node at the first try", async () => {
            const { first, atFirstReturn } = live();
            const nbWrites = first.ops.filter((o) => o.type.includes("dynamic/ovn-nb:") && o.op === "create").length;
            assert.ok(nbWrites >= 4, `${nbWrites} NB resources created`);
            assert.ok(atFirstReturn.nbCfg >= nbWrites, `nb_cfg ${atFirstReturn.nbCfg} after ${nbWrites} NB creates`);
            assert.equal(atFirstReturn.hvCfg, atFirstReturn.nbCfg);
            assert.ok(atFirstReturn.managementPorts.allOk, "\n" + formatMatrix(atFirstReturn.managementPorts));
        });

        test("pods on different nodes ping and exchange TCP; a pod reaches the outside through the gateway with SNAT", async () => {
            const { cluster, model, pods } = live();
            const report = await overlayReport(cluster, model, pods);
            assert.ok(report.allOk, "\n" + formatReport(report));
            assert.equal(report.gateway.seenSource, model.gateways[0].physical.ip);
            assert.equal(report.podTcp.seenSource, pods[0].ip);
        });

        test("a second up changes nothing", async () => {
            const r = await apply(live().options);
            assert.equal(r.ok, true, r.error);
            assert.deepEqual(changed(r), []);
            assert.ok(r.counts.unchanged > 30, `unchanged ${r.counts.unchanged}`);
        });

        test("drift: a management port deleted by hand is reported by refresh and restored by the next up", async () => {
            const { cluster, model, pods, options } = live();
            const node2 = model.nodeNetworks.find((n) => n.node === "node2")!;
            await sh(central(), ["ovn-nbctl", "lsp-del", node2.mgmtPort]);
            // The port is gone: within a bounded wait (flows are removed asynchronously) it stops answering.
            let unreachable = false;
            for (let i = 0; i < 15 && !unreachable; i++) unreachable = !(await ping(cluster, pods[0], node2.mgmt.ip, 1));
            assert.ok(unreachable, `${node2.mgmt.ip} still answers after its port was deleted`);

            const seen = await refresh({ ...options, dryRun: true });
            assert.equal(seen.ok, true, seen.error);
            assert.deepEqual(
                seen.drift.map((d) => d.name),
                ["ovn-node2-switch"],
            );

            const fixed = await apply({ ...options, refresh: true });
            assert.equal(fixed.ok, true, fixed.error);
            assert.deepEqual(changed(fixed), ["update ovn-node2-switch"]);
            assert.ok((await nbNames("Logical_Switch_Port")).includes(node2.mgmtPort));
            const report = await overlayReport(cluster, model, pods);
            assert.ok(report.allOk, "\n" + formatReport(report));
        });
    });
}
