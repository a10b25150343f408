// A "reboot" of a namespaced lab host with its own root (Debian 13: its /etc/init.d and
// /usr/local/sbin are its own, so the boot entry's files are the host's, not this machine's).
// `powerOff` takes what a reboot takes: every daemon, /run, nftables, every virtual device (OVS's
// bridges, internal ports, its netdev tap) and the NIC's addresses. `bootHost` runs what the
// host's boot would run, in init order: Open vSwitch from its database (the OVS start script),
// the project's boot entry (its LSB init script: lab hosts have no init system), and
// ovn-controller, as ovn-host's init script starts it.
import assert from "node:assert/strict";
import * as scripts from "../../../components/hosts/scripts";
import type { HostModel } from "../../../components/model/types";
import { hostExec, type LocalCluster } from "../../../lab/localcluster";
import { processesInNetns } from "../../../lab/localcluster/namespaces";
import { inHost } from "./lab";

/** The boot entry's LSB init script, as update-rc.d enables it. */
export const INIT_SCRIPT = `/etc/init.d/${scripts.BOOT_ENTRY}`;

/** The daemons a lab chassis or central runs, by pid file (/run goes with them). */
const DAEMON_PID_FILES = [
    "/run/ovn/ovn-controller.pid",
    "/run/ovn/ovn-northd.pid",
    "/run/ovn/ovnnb_db.pid",
    "/run/ovn/ovnsb_db.pid",
    "/run/openvswitch/ovs-vswitchd.pid",
    "/run/openvswitch/ovsdb-server.pid",
];

/**
 * Power off `host`: the daemons die, /run is fresh, the kernel forgets nftables, every link but
 * loopback and `nic`, and every address; then `nic` comes back with `nicAddress` (what a
 * distribution's leftovers would put back), so the boot entry has to take it off again.
 */
export async function powerOff(cluster: LocalCluster, host: string, nic: string, nicAddress: string): Promise<void> {
    const script = [
        `for f in ${DAEMON_PID_FILES.join(" ")}; do if [ -e "$f" ]; then kill -9 "$(cat "$f")" || true; fi; done`,
        "rm -rf /run/openvswitch/* /run/ovn/* /run/ovn-kubernetes-as-code",
        "nft flush ruleset",
        // Every virtual link: the part of `N: name@peer: ...` before the `@`.
        `for d in $(ip -o link show | awk -F': ' '{ sub(/@.*/, "", $2); print $2 }'); do if [ "$d" != lo ] && [ "$d" != "$1" ] && [ -e "/sys/class/net/$d" ]; then ip link del "$d"; fi; done`,
        `ip addr flush dev "$1" scope global && ip link set "$1" down`,
        `ip addr add "$2" dev "$1"`,
    ].join(" && ");
    const r = await hostExec(cluster, host, ["bash", "-c", script, "power-off", nic, nicAddress]);
    assert.equal(r.code, 0, `powering off ${host}: ${r.stderr}`);
}

/**
 * Every process of `host` ends as at a power cut (SIGKILL): its daemons, its SSH sessions and the
 * commands they run, whose connections close. Kept: what the lab runs to be the host, the
 * namespace holder and the SSH server's listener, which a real host would start again at boot.
 * Returns how many ended.
 */
export function endHostProcesses(cluster: LocalCluster, host: string): number {
    const { netns, holderPid } = cluster.hosts.find((h) => h.name === host)!;
    const ending = processesInNetns(netns).filter((p) => p.pid !== holderPid && !p.cmdline.includes("[listener]"));
    for (const { pid } of ending) {
        try {
            process.kill(pid, "SIGKILL");
        } catch {
            // gone meanwhile
        }
    }
    return ending.length;
}

/**
 * What the host's boot runs after a power off; fails naming the step that failed. Returns the
 * boot entry's stderr (what it restored) and how long the three steps took.
 */
export async function bootHost(
    cluster: LocalCluster,
    host: Pick<HostModel, "name" | "os" | "datapathType">,
): Promise<{ bootLog: string; ms: number }> {
    const started = Date.now();
    await inHost(cluster, host.name, scripts.ovsStartScript(host).create);
    const boot = await hostExec(cluster, host.name, [INIT_SCRIPT, "start"]);
    assert.equal(boot.code, 0, `${INIT_SCRIPT} start on ${host.name}: ${boot.stderr}`);
    await inHost(cluster, host.name, "/usr/share/ovn/scripts/ovn-ctl start_controller");
    return { bootLog: boot.stderr, ms: Date.now() - started };
}
