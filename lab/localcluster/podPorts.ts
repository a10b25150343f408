// The host end of a pod's veth, as the lab's userspace OVS needs it. With the kernel datapath an
// OVS port's packets never reach the host's IP stack; with the userspace datapath (the only one
// in network namespaces here) OVS reads them through a packet socket while the kernel still
// processes them too: the host then answers ARP for its own addresses (the management port's .2)
// with the veth's MAC, and the pod's traffic to its own node goes astray. The same nftables
// ingress drop the gateway script puts on a NIC it moves (OVS's packet socket sees packets before
// that hook) keeps the kernel out.
import { hostExec } from "./exec";
import type { LocalCluster } from "./state";

const IFNAME = /^[A-Za-z0-9_][A-Za-z0-9_.-]{0,14}$/;

/** Drops, at the kernel's ingress hook, every packet of the interface in the host (idempotent). */
export async function keepKernelOffPort(cluster: LocalCluster, node: string, ifname: string): Promise<void> {
    if (!IFNAME.test(ifname)) throw new Error(`${JSON.stringify(ifname)} is not an interface name`);
    const table = `lab-pod-${ifname}`;
    const rules = `table netdev ${table} {\n    chain ingress {\n        type filter hook ingress device "${ifname}" priority 0; policy drop;\n    }\n}\n`;
    const r = await hostExec(cluster, node, ["sh", "-c", 'nft list table netdev "$1" >/dev/null 2>&1 || nft -f -', "sh", table], {
        input: rules,
    });
    if (r.code !== 0) throw new Error(`${node}: cannot keep the kernel off ${ifname}: ${r.stderr.trim()}`);
}

/** Removes the drop tables of pod ports that no longer exist on the host (after their pods have gone). */
export async function releaseGonePorts(cluster: LocalCluster, node: string): Promise<void> {
    const script =
        'for t in $(nft list tables netdev | awk \'$3 ~ /^lab-pod-/ { print $3 }\'); do [ -e "/sys/class/net/${t#lab-pod-}" ] || nft delete table netdev "$t"; done';
    const r = await hostExec(cluster, node, ["sh", "-c", script]);
    if (r.code !== 0) throw new Error(`${node}: cannot remove the drop tables of gone pod ports: ${r.stderr.trim()}`);
}
