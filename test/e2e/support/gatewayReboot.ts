// A gateway host reboots under a running Pulumi-mode cluster (hosts with their own roots, so the
// boot entry's files are the host's): it loses every daemon and all kernel state a reboot loses
// (test/hosts/support/reboot.ts), then runs only what its boot runs: Open vSwitch from its
// database, the project's boot entry, ovn-controller. No program runs. The boot entry restores
// breth0's addresses and routes, the management port, and, once ovn-controller has added the
// localnet patch port, the conntrack flows that let host and gateway router share the NIC: without
// those, SNAT from pods fails whenever the host's NORMAL switching learns the shared MAC on the
// patch port. Pods ping each other again and every SNAT probe passes.
import assert from "node:assert/strict";
import { test } from "node:test";
import * as scripts from "../../../components/hosts/scripts";
import type { ClusterModel } from "../../../components/model/types";
import { hostExec, type LocalCluster, type LocalPod } from "../../../lab/localcluster";
import { formatMatrix, podMatrix } from "../../../lab/localcluster/checks";
import { hostOut, snatSeen, sortedLines } from "../../../lab/scenarios/liveChange";
import { bootHost, powerOff } from "../../hosts/support/reboot";

/** Single SNAT tries that must all see the gateway, once it has settled. */
const PROBES = 8;

export interface RebootLab {
    cluster: LocalCluster;
    model: ClusterModel;
    pods: readonly LocalPod[];
}

async function waitFor(what: string, seconds: number, check: () => Promise<boolean>): Promise<void> {
    const deadline = Date.now() + seconds * 1000;
    while (!(await check())) {
        if (Date.now() > deadline) assert.fail(`timed out after ${seconds} s waiting for ${what}`);
        await new Promise((r) => setTimeout(r, 250));
    }
}

/** The two checks, in order, for the gateway `gw` of the lab `lab()` returns. */
export function gatewayRebootChecks(lab: () => RebootLab, gw: string): void {
    const gwIp = () => lab().cluster.hosts.find((h) => h.name === gw)!.ip;
    /** breth0's flows, port numbers left out: OVS may number the recreated ports anew. */
    const flows = async () =>
        sortedLines(await hostOut(lab().cluster, gw, ["ovs-ofctl", "-O", "OpenFlow13", "--no-stats", "dump-flows", "breth0"])).map((f) =>
            f.replace(/(in_port=|output:)\d+/g, "$1N"),
        );

    /** Pods and management ports all answer; then SNAT settles (bounded) and PROBES single tries all see the gateway. */
    async function assertPodsAndSnat(): Promise<void> {
        const { cluster, model, pods } = lab();
        const m = await podMatrix(cluster, model, pods, 30);
        assert.ok(m.allOk, "\n" + formatMatrix(m));
        await waitFor("SNAT via the gateway", 30, async () => (await snatSeen(cluster, pods[0])) === gwIp());
        const seen: Array<string | undefined> = [];
        for (let i = 0; i < PROBES; i++) seen.push(await snatSeen(cluster, pods[0]));
        assert.deepEqual(seen, Array(PROBES).fill(gwIp()), "every SNAT probe seen as the gateway's address");
    }

    let flowsBefore: string[];

    test(`before ${gw}'s reboot: pods ping, SNAT via the gateway, its flows recorded as a boot piece`, async () => {
        await assertPodsAndSnat();
        flowsBefore = await flows();
        assert.ok(
            flowsBefore.some((f) => f.includes("ct(commit,zone=64000)")),
            flowsBefore.join("\n"),
        );
        const piece = await hostOut(lab().cluster, gw, ["cat", scripts.flowsPiece("breth0")]);
        assert.match(piece, /^kind gateway-flows$/m);
        assert.match(piece, new RegExp(`^patch_port patch-breth0_${gw}-to-br-int$`, "m"));
        assert.equal((await hostOut(lab().cluster, gw, ["stat", "-c", "%a", scripts.flowsPiece("breth0")])).trim(), "600");
    });

    test(`reboot of the gateway host ${gw}, no program run: flows, pod traffic and SNAT come back`, async (t) => {
        const { cluster, model } = lab();
        await powerOff(cluster, gw, "eth0", `${gwIp()}/${cluster.prefixLen}`);
        assert.equal(
            (await hostExec(cluster, gw, ["ovs-vsctl", "--timeout=2", "show"])).code === 0,
            false,
            "OVS is down after the power off",
        );
        const boot = await bootHost(
            cluster,
            model.hosts.find((h) => h.name === gw)!,
        );
        t.diagnostic(`boot: ${boot.ms} ms`);
        assert.match(boot.bootLog, /eth0 on breth0 \(shared\): restored/);
        assert.match(boot.bootLog, new RegExp(`gateway flows on breth0: installed once ovn-controller adds patch-breth0_${gw}-to-br-int`));
        const started = Date.now();
        await waitFor("the gateway flows on breth0", 120, async () => JSON.stringify(await flows()) === JSON.stringify(flowsBefore));
        t.diagnostic(`flows back ${Date.now() - started} ms after the boot entry`);
        assert.match(await hostOut(cluster, gw, ["cat", scripts.BOOT_FLOWS_LOG]), /gateway flows on breth0: restored/);
        await assertPodsAndSnat();
    });
}
