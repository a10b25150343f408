// A change that replaces host commands through their triggers, on a running cluster:
// the gateway bridge of node3 renamed from breth0 to brgw0. The NIC move and
// the gateway flows are replaced delete-first (components/hosts/command.ts): the old delete runs
// before the new create, so it can never undo the new setup. The host ends with eth0 and its
// address on brgw0, the flows and the localnet patch port there, breth0 gone, the boot pieces
// naming brgw0 only; SNAT works; pods on the untouched nodes lose nothing; a further up changes
// nothing. First, while the distribution's network configuration still names the NIC, preview
// and up refuse before any step.
import assert from "node:assert/strict";
import { before, describe, test } from "node:test";
import * as scripts from "../../../components/hosts/scripts";
import { hostExec } from "../../../lab/localcluster";
import { apply, preview } from "../../../lab/offline/api";
import {
    editStack,
    hostOut,
    PROJECT_KEY,
    snatProbe,
    snatSeen,
    sortedLines,
    upUnderTraffic,
    type LiveLab,
} from "../../../lab/scenarios/liveChange";

const GW = "node3";
let lab: LiveLab;

const gwIp = () => lab.cluster.hosts.find((h) => h.name === GW)!.ip;
const sh = (script: string) => hostOut(lab.cluster, GW, ["bash", "-c", script]);

async function assertSnat(probes = 4) {
    const deadline = Date.now() + 30_000;
    while ((await snatSeen(lab.cluster, lab.pods[0])) !== gwIp() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 250));
    for (let i = 0; i < probes; i++) {
        const p = await snatProbe(lab.cluster, lab.pods[0]);
        if (p.seenSource !== gwIp()) {
            const state = await sh(
                "ovs-appctl fdb/show $(ovs-vsctl list-br | grep -v br-int); ovs-ofctl -O OpenFlow13 dump-flows $(ovs-vsctl list-br | grep -v br-int); ovs-vsctl -- --columns=name,ofport list Interface",
            );
            assert.fail(
                `SNAT probe ${i + 1}: seen ${p.seenSource}, ${p.error}\n${state}\n${await hostOut(lab.cluster, "node1", ["ovn-sbctl", "list", "MAC_Binding"])}`,
            );
        }
    }
}

/** The checks of the gateway bridge renamed, on the shared live lab. */
export function gatewayBridgeRenameChecks(live: () => LiveLab): void {
    describe("the gateway bridge renamed", () => {
        before(async () => {
            lab = live();
            await assertSnat();
        });

        test("a NIC the distribution still configures: preview and up refuse, naming the file and the fix, with no step taken", async () => {
            // On a tmpfs of node3's own mount namespace: Debian 12 hosts share this machine's /etc.
            await sh(
                "mount -t tmpfs lab-etc-network /etc/network && printf 'auto eth0\\niface eth0 inet dhcp\\n' >/etc/network/interfaces",
            );
            try {
                for (const r of [await preview(lab.options), await apply(lab.options)]) {
                    assert.equal(r.ok, false, "refused");
                    assert.match(r.error ?? "", /eth0 is configured by this host's own network configuration/);
                    assert.match(r.error ?? "", /\/etc\/network\/interfaces:2:iface eth0 inet dhcp/);
                    assert.match(r.error ?? "", /'iface eth0 inet manual'/);
                    assert.deepEqual(
                        r.ops.filter((x) => x.error !== undefined).map((x) => x.name),
                        [`ovn-${GW}-scripts`],
                        "the host's bundle refused",
                    );
                    assert.deepEqual(
                        r.ops.filter((x) => x.op !== "same" && x.error === undefined).map((x) => `${x.op} ${x.name}`),
                        [],
                        "no step taken",
                    );
                }
            } finally {
                await sh("umount /etc/network");
            }
            const handedOver = await preview(lab.options);
            assert.equal(handedOver.ok, true, handedOver.error);
            assert.deepEqual(
                handedOver.ops.filter((x) => x.op !== "same").map((x) => `${x.op} ${x.name}`),
                [],
            );
        });

        test("gateway bridge breth0 → brgw0 on a running cluster: replaced delete-first, the host ends in the new state", async (t) => {
            editStack(lab, (config) => {
                const node = (config[PROJECT_KEY("nodes")] as Array<Record<string, any>>).find((n) => n.name === GW)!;
                node.gateway.bridge = "brgw0";
            });
            const o = await upUnderTraffic(lab, [
                [lab.pods[0], lab.pods[1]],
                [lab.pods[1], lab.pods[0]],
            ]);
            assert.equal(o.result.ok, true, o.result.error);
            const changed = o.result.ops.filter((x) => x.op !== "same").map((x) => `${x.op} ${x.name}`);
            t.diagnostic(`up ${o.seconds.toFixed(1)} s; ${changed.join("; ")}`);
            assert.ok(changed.includes(`replace ovn-${GW}-gateway-host-bridge`), changed.join("\n"));
            assert.ok(changed.includes(`replace ovn-${GW}-gateway-flows-flows`), changed.join("\n"));
            assert.deepEqual(
                changed.filter((c) => c.startsWith("delete-replaced")),
                [],
                "no create-before-delete replacement of a host command",
            );
            for (const x of o.traffic) assert.equal(x.lost, 0, `${x.lost} of ${x.sent} probes between untouched pods lost`);

            assert.deepEqual(sortedLines(await sh("ovs-vsctl list-br")), ["br-int", "brgw0"]);
            assert.equal((await hostExec(lab.cluster, GW, ["ip", "link", "show", "breth0"])).code === 0, false, "no breth0 link left");
            assert.deepEqual(sortedLines(await sh("ovs-vsctl list-ports brgw0")), ["eth0", `patch-brgw0_${GW}-to-br-int`]);
            assert.match(await sh("ip -4 -o addr show dev brgw0"), new RegExp(`inet ${gwIp().replace(/\./g, "\\.")}/`));
            assert.equal((await sh("ip -4 -o addr show dev eth0")).trim(), "", "eth0 holds no IPv4 address");
            assert.match(await sh("ip -4 route show default"), /dev brgw0/);
            assert.match(await sh("ovs-ofctl -O OpenFlow13 dump-flows brgw0"), /actions=ct\(commit,zone=64000\)/);
            assert.equal(
                (await sh("ovs-vsctl get Open_vSwitch . external_ids:ovn-bridge-mappings")).trim().replace(/"/g, ""),
                "physnet:brgw0",
            );
            const pieces = sortedLines(await sh(`ls ${scripts.HOST_NETWORK_DIR}`));
            assert.deepEqual(
                pieces.filter((p) => p.startsWith("flows-") || p.startsWith("nic-")),
                ["flows-brgw0.conf", "nic-eth0.conf"],
            );
            assert.match(await sh(`cat ${scripts.nicPiece("eth0")}`), /^bridge brgw0$/m);
            await assertSnat();
        });

        test("a further up changes nothing", async () => {
            const r = await apply(lab.options);
            assert.equal(r.ok, true, r.error);
            assert.deepEqual(
                r.ops.filter((x) => x.op !== "same").map((x) => `${x.op} ${x.name}`),
                [],
            );
        });
    });
}
