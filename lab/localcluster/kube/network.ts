// The control plane's "machine" on the underlay: a network namespace with eth0 on the cluster's
// bridge, like a host's but without mount or UTS namespaces (its programs need no private paths).
import { deleteLink, txChecksumOff } from "../links";
import { deleteNetns } from "../namespaces";
import { check, run } from "../run";
import type { ControlPlaneLayout } from "./layout";

export async function createControlPlaneNetwork(
    layout: ControlPlaneLayout,
    bridge: string,
    addresses: readonly { address: string; prefixLen: number }[],
): Promise<void> {
    const ns = layout.netns;
    await check(["ip", "netns", "add", ns]);
    await check(["ip", "link", "add", layout.veth, "type", "veth", "peer", "name", "eth0", "netns", ns]);
    await check(["ip", "link", "set", layout.veth, "master", bridge, "up"]);
    await check(["ip", "-n", ns, "-batch", "-"], {
        // nodad: an IPv6 address usable at once, as the IPv4 one (the API server binds it next).
        input:
            [
                `link set lo up`,
                ...addresses.map((a) => `address add ${a.address}/${a.prefixLen} dev eth0${a.address.includes(":") ? " nodad" : ""}`),
                `link set eth0 up`,
            ].join("\n") + "\n",
    });
    // Its answers to a host whose NIC sits on a userspace OVS bridge must carry finished checksums.
    await txChecksumOff(layout.veth);
    await txChecksumOff("eth0", ns);
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const linkExists = async (name: string) => (await run(["ip", "link", "show", "dev", name])).code === 0;

/**
 * Deletes the namespace (its processes must be gone). The root-side veth end dies with its peer,
 * asynchronously: wait for that (bounded) rather than race the kernel to delete it, and delete
 * it only if it outlives the wait.
 */
export async function deleteControlPlaneNetwork(layout: ControlPlaneLayout): Promise<void> {
    await deleteNetns(layout.netns);
    for (let i = 0; i < 60 && (await linkExists(layout.veth)); i++) await sleep(50);
    if (await linkExists(layout.veth)) await deleteLink(layout.veth);
}
