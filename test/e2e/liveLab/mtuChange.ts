// Raising the overlay MTU of a running cluster from 1400 to 1442,
// the most a 1500-byte underlay carries with geneve (support/mtuChange.ts: 58 bytes of overhead),
// while pods on node1 and node2 ping each other. Pulumi mode, because there the project writes
// every MTU on the hosts (the management ports); ovnkube mode's part, ConfigMap `mtu` and the
// DaemonSets rolling on its checksum, is proven on the objects in test/kube/manifests.test.ts.
// The order the change lands in (README "Changing the MTU"): `up` gives every management port the
// new MTU (OVS mtu_request, the link, the boot piece) in place, with no restart; pods keep the
// MTU their CNI ADD gave them until they are created again; then packets of the new MTU with Don't
// Fragment set cross the overlay pod to pod and host to pod, and one byte more is refused at the pod.
// One byte more than the underlay carries is refused at preview, on every node, before any step.
import assert from "node:assert/strict";
import { before, describe, test } from "node:test";
import * as scripts from "../../../components/hosts/scripts";
import { apply, preview } from "../../../lab/offline/api";
import { editStack, hostOut, PROJECT_KEY, sortedLines, type LiveLab } from "../../../lab/scenarios/liveChange";
import { changeMtu, dfPing, GENEVE_OVERHEAD, NEW_MTU, recreatePods, UNDERLAY_MTU } from "../../../lab/scenarios/mtuChange";

let lab: LiveLab;

/** Per node: the management port's link MTU, OVS mtu_request, and the MTU its boot piece records. */
async function mgmtMtus(): Promise<string[]> {
    const out: string[] = [];
    for (const n of lab.model.nodeNetworks) {
        const link = (await hostOut(lab.cluster, n.node, ["cat", `/sys/class/net/${n.mgmtInterface}/mtu`])).trim();
        const ovs = (await hostOut(lab.cluster, n.node, ["ovs-vsctl", "get", "Interface", n.mgmtInterface, "mtu_request"])).trim();
        const piece = /^mtu (\d+)$/m.exec(await hostOut(lab.cluster, n.node, ["cat", scripts.mgmtPiece(n.mgmtInterface)]))?.[1];
        out.push(`${n.node} link ${link} ovs ${ovs} piece ${piece}`);
    }
    return out.sort();
}
const expectMtus = (mtu: number) => lab.model.nodeNetworks.map((n) => `${n.node} link ${mtu} ovs ${mtu} piece ${mtu}`).sort();

/** The checks of the overlay MTU, on the shared live lab. */
export function mtuChangeChecks(live: () => LiveLab): void {
    describe("the overlay MTU", () => {
        before(async () => {
            lab = live();
        });

        test("at 1400: management ports at 1400; a DF packet of the new MTU does not leave the pod", async () => {
            assert.equal((await hostOut(lab.cluster, "node1", ["cat", "/sys/class/net/eth0/mtu"])).trim(), String(UNDERLAY_MTU));
            assert.deepEqual(await mgmtMtus(), expectMtus(1400));
            assert.equal((await dfPing(lab, lab.pods[0], lab.pods[1].ip, 1400)).ok, true);
            const big = await dfPing(lab, lab.pods[0], lab.pods[1].ip, NEW_MTU);
            assert.equal(big.ok, false);
            assert.match(big.output, /message too long|mtu=1400/i);
        });

        test(`mtu ${NEW_MTU + 1}, one byte more than the underlay carries: preview and up refuse naming the node, its device and the largest MTU; nothing changes`, async () => {
            editStack(lab, (config) => (config[PROJECT_KEY("mtu")] = NEW_MTU + 1));
            try {
                for (const r of [await preview(lab.options), await apply(lab.options)]) {
                    assert.equal(r.ok, false, "refused");
                    // The engine starts no step after a failed one: the checks that ran each name their node.
                    const failed = r.ops.filter((x) => x.error !== undefined && !x.error.includes("cancelled after an earlier failure"));
                    assert.ok(failed.length >= 1, r.error);
                    for (const x of failed) {
                        const h = lab.model.hosts.find((host) => x.name === `ovn-${host.name}-scripts`);
                        assert.ok(h, `${x.name} failed: ${x.error}`);
                        assert.match(
                            x.error!,
                            new RegExp(`mtu ${NEW_MTU + 1} does not fit ${h.name}'s underlay: geneve adds ${GENEVE_OVERHEAD} bytes`),
                        );
                        assert.match(
                            x.error!,
                            new RegExp(`its tunnel address ${h.chassis!.encapIp.replace(/\./g, "\\.")}\\), whose MTU is ${UNDERLAY_MTU}`),
                        );
                        assert.match(x.error!, new RegExp(`set mtu to at most ${NEW_MTU}`));
                    }
                    assert.deepEqual(
                        r.ops.filter((x) => x.op !== "same" && x.error === undefined).map((x) => `${x.op} ${x.name}`),
                        [],
                        "no step taken",
                    );
                }
                assert.deepEqual(await mgmtMtus(), expectMtus(1400));
            } finally {
                editStack(lab, (config) => (config[PROJECT_KEY("mtu")] = 1400));
            }
        });

        // Pods keep reaching each other throughout. Not one lost probe, though: on the userspace datapath a
        // management port's MTU changed in OVS (mtu_request, or the link itself) drops a packet in flight
        // now and then. Measured here with pods pinging every 50 ms across 180 such changes: 3 and 6 probes
        // lost in two runs, none across as many writes of the unchanged value. So at most one per
        // management port changed, per pair; a path that stopped working would lose every probe after it.
        test(`mtu 1400 → ${NEW_MTU} under traffic: every management port takes it in place, pods keep reaching each other`, async (t) => {
            const sbBefore = sortedLines(await hostOut(lab.cluster, "node1", ["ovn-sbctl", "--bare", "--columns=name", "list", "Chassis"]));
            const nbBefore = sortedLines(
                await hostOut(lab.cluster, "node1", ["ovn-nbctl", "--bare", "--columns=name,addresses", "list", "Logical_Switch_Port"]),
            );
            const o = await changeMtu(lab, NEW_MTU);
            assert.equal(o.result.ok, true, o.result.error);
            const changed = o.result.ops.filter((x) => x.op !== "same").map((x) => `${x.op} ${x.name}`);
            t.diagnostic(
                `up ${o.seconds.toFixed(1)} s; pods ${o.traffic.map((x) => `${x.lost}/${x.sent}`).join(", ")} lost; ${changed.join("; ")}`,
            );
            assert.deepEqual(
                changed.filter((c) => !c.startsWith("update ")),
                [],
                "updated in place, nothing created, replaced or deleted",
            );
            assert.deepEqual(
                changed.filter((c) => !/-mgmt-port$|-scripts$/.test(c)),
                [],
                "only the management ports change (and the script bundles check the MTU again)",
            );
            const portsChanged = changed.filter((c) => c.endsWith("-mgmt-port")).length;
            assert.equal(portsChanged, lab.model.nodeNetworks.length);
            for (const x of o.traffic)
                assert.ok(
                    x.lost <= portsChanged,
                    `${x.lost} of ${x.sent} probes lost, more than one per management port changed (${portsChanged})`,
                );
            assert.deepEqual(await mgmtMtus(), expectMtus(NEW_MTU));
            assert.deepEqual(
                sortedLines(await hostOut(lab.cluster, "node1", ["ovn-sbctl", "--bare", "--columns=name", "list", "Chassis"])),
                sbBefore,
            );
            assert.deepEqual(
                sortedLines(
                    await hostOut(lab.cluster, "node1", ["ovn-nbctl", "--bare", "--columns=name,addresses", "list", "Logical_Switch_Port"]),
                ),
                nbBefore,
            );
        });

        test(`pods created again at ${NEW_MTU}: DF packets of exactly ${NEW_MTU} bytes cross the overlay pod to pod and host to pod; one more byte is refused at the pod`, async () => {
            await recreatePods(lab);
            assert.equal(lab.pods[0].mtu, NEW_MTU);
            for (const [from, to] of [
                [lab.pods[0], lab.pods[1]],
                [lab.pods[1], lab.pods[0]],
            ] as const) {
                const r = await dfPing(lab, from, to.ip, NEW_MTU);
                assert.equal(r.ok, true, `${from.ifaceId} → ${to.ip}: ${r.output}`);
            }
            const fromHost = await dfPing(lab, "node3", lab.pods[1].ip, NEW_MTU);
            assert.equal(fromHost.ok, true, `node3 through its management port → ${lab.pods[1].ip}: ${fromHost.output}`);
            const over = await dfPing(lab, lab.pods[0], lab.pods[1].ip, NEW_MTU + 1);
            assert.equal(over.ok, false);
            assert.match(over.output, new RegExp(`message too long|mtu=${NEW_MTU}`, "i"));
        });
    });
}
