// A host rebooted in the middle of an up (Pulumi mode, hosts with their own roots): the up raises
// the overlay MTU, which updates every node's management port; while the host's management port
// command runs, every process of the host ends as at a power cut (its SSH sessions with them), the
// kernel forgets what a reboot forgets, and the host boots (test/hosts/support/reboot.ts). The up
// completes or fails naming the host; the next up converges and the one after it changes nothing.
// The host's pod is started again (in Pulumi mode the lab's pods are the lab's, as a kubelet would
// start a node's pods again) and reaches every pod and management port.
import assert from "node:assert/strict";
import { test } from "node:test";
import { hostExec, startPod, stopPod } from "../../../lab/localcluster";
import { formatMatrix, managementPortMatrix, podMatrix } from "../../../lab/localcluster/checks";
import { apply } from "../../../lab/offline/api";
import { changed } from "./upgradeProbes";
import { commandRunningOn } from "../../../lab/scenarios/killedUp";
import { editStack, PROJECT_KEY } from "../../../lab/scenarios/liveChange";
import { NEW_MTU } from "../../../lab/scenarios/mtuChange";
import type { GatewayLab } from "../../../lab/scenarios/gatewayChange";
import { reportFaultCell, secondsSince } from "../../support/faultMatrix";
import { bootHost, endHostProcesses, powerOff } from "../../hosts/support/reboot";

/** The check for `host`, which carries `lab().pods[podIndex]`. */
export function rebootMidUpCheck(lab: () => GatewayLab, host: string, podIndex: 0 | 1): void {
    test(`${host} rebooted while an up changes every node's management port (the MTU): that up completes or fails naming ${host}; the next converges; its pod, started again, reaches every pod and management port`, async (t) => {
        const { cluster, model } = lab();
        const ip = cluster.hosts.find((h) => h.name === host)!.ip;
        editStack(lab(), (config) => (config[PROJECT_KEY("mtu")] = NEW_MTU));
        const running = commandRunningOn(cluster, host, "mgmt-port-create");
        const upRun = apply(lab().options);
        const ended = await Promise.race([running.then(() => undefined), upRun]);
        assert.equal(ended, undefined, `the up ended before ${host}'s management port command ran: ${ended?.error}`);
        const cut = endHostProcesses(cluster, host);
        await powerOff(cluster, host, "eth0", `${ip}/${cluster.prefixLen}`);
        const boot = await bootHost(
            cluster,
            model.hosts.find((h) => h.name === host)!,
        );
        const booted = Date.now();
        const up = await upRun;
        console.log(
            `# ${host}: ${cut} processes ended mid-up, booted in ${boot.ms} ms; the up ${up.ok ? "completed" : `failed: ${up.error}`}`,
        );
        if (!up.ok) assert.ok(up.error!.includes(ip), `the failed up names ${host} (${ip}): ${up.error}`);

        const next = await apply(lab().options);
        assert.equal(next.ok, true, next.error);
        const convergeSeconds = secondsSince(booted);
        const noop = await apply(lab().options);
        assert.equal(noop.ok, true, noop.error);
        assert.deepEqual(changed(noop), []);
        const mgmtIf = model.nodeNetworks.find((n) => n.node === host)!.mgmtInterface;
        const mtu = await hostExec(cluster, host, ["cat", `/sys/class/net/${mgmtIf}/mtu`]);
        assert.equal(mtu.stdout.trim(), String(NEW_MTU), `${host}'s ${mgmtIf} MTU`);

        // The power cut took the pod's link: it is started again, as a kubelet would.
        const old = lab().pods[podIndex];
        await stopPod(cluster, model, old.node, old.namespace, old.pod);
        lab().pods[podIndex] = await startPod(cluster, model, old.node, old.namespace, old.pod, podIndex === 0 ? 10 : 11);
        const m = await podMatrix(cluster, model, lab().pods, 30);
        assert.ok(m.allOk, "\n" + formatMatrix(m));
        const hosts = await managementPortMatrix(cluster, model);
        assert.ok(hosts.allOk, "\n" + formatMatrix(hosts));
        reportFaultCell(t, {
            fault: "a host rebooted (every process ended, kernel state lost, booted)",
            point: "while its management port command runs (an MTU change)",
            mode: "Pulumi",
            outcome: `the up ${up.ok ? "completed" : `failed naming ${host}`}; the next converged, the one after a no-op; its pod, started again, reaches every pod and management port`,
            convergeSeconds,
        });
    });
}
