// The control plane's "machine" on the underlay: a network namespace with eth0 on the cluster's
// bridge, like a host's but without mount or UTS namespaces (its programs need no private paths).
import { deleteLink, txChecksumOff } from "../links";
import { deleteNetns } from "../namespaces";
import { check } from "../run";
import type { ControlPlaneLayout } from "./layout";

export async function createControlPlaneNetwork(layout: ControlPlaneLayout, bridge: string, address: string, prefixLen: number): Promise<void> {
    const ns = layout.netns;
    await check(["ip", "netns", "add", ns]);
    await check(["ip", "link", "add", layout.veth, "type", "veth", "peer", "name", "eth0", "netns", ns]);
    await check(["ip", "link", "set", layout.veth, "master", bridge, "up"]);
    await check(["ip", "-n", ns, "-batch", "-"], {
        input: [`link set lo up`, `address add ${address}/${prefixLen} dev eth0`, `link set eth0 up`].join("\n") + "\n",
    });
    // Its answers to a host whose NIC sits on a userspace OVS bridge must carry finished checksums.
    await txChecksumOff(layout.veth);
    await txChecksumOff("eth0", ns);
}

/** Deletes the namespace (its processes must be gone) and the veth if it outlived it. */
export async function deleteControlPlaneNetwork(layout: ControlPlaneLayout): Promise<void> {
    await deleteNetns(layout.netns);
    await deleteLink(layout.veth);
}
