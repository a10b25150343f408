// Where a pod of the real kubelet lives on its host: containerd names each sandbox's network
// namespace /var/run/netns/cni-<uuid> and records nothing the lab could read without its API, so
// the namespace is found by the address the pod reports, and the host end of its veth by the
// peer index of the pod's eth0.
import type { LocalHost } from "../state";
import { hostArgv } from "../exec";
import { run } from "../run";

/** The pod's interface, as the kubelet names it in every CNI call (CNI_IFNAME). */
export const POD_IFNAME = "eth0";

const CNI_NETNS_DIR = "/var/run/netns";

export interface PodNetwork {
    /** The namespace's path in the host. */
    netnsPath: string;
    /** The host end of the pod's veth. */
    hostIfname: string;
}

/** `ip -o link show` line → [index, name, peer index]. */
function parseLink(line: string): { index: number; name: string; peer?: number } | undefined {
    const m = /^(\d+): ([^:@\s]+)(?:@if(\d+))?:/.exec(line.trim());
    return m ? { index: Number(m[1]), name: m[2], peer: m[3] === undefined ? undefined : Number(m[3]) } : undefined;
}

/** The sandbox namespace on `host` whose eth0 holds `ip`, and its veth's host end; throws naming what was looked at. */
export async function findPodNetwork(host: LocalHost, ip: string): Promise<PodNetwork> {
    const listed = await run(
        hostArgv(host, ["sh", "-c", 'for f in "$1"/cni-*; do [ -e "$f" ] && echo "$f"; done; true', "sh", CNI_NETNS_DIR]),
    );
    const namespaces = listed.stdout.split("\n").filter(Boolean);
    for (const netnsPath of namespaces) {
        const addrs = await run(hostArgv(host, ["nsenter", `--net=${netnsPath}`, "--", "ip", "-o", "addr", "show", "dev", POD_IFNAME]));
        // Either family: an IPv6-only pod has no inet address (ip prints IPv6 in its canonical form).
        if (![...addrs.stdout.matchAll(/\binet6? ([0-9a-f.:]+)\//g)].some((m) => m[1] === ip)) continue;
        const podLink = parseLink(
            (await run(hostArgv(host, ["nsenter", `--net=${netnsPath}`, "--", "ip", "-o", "link", "show", "dev", POD_IFNAME]))).stdout,
        );
        if (podLink?.peer === undefined) throw new Error(`${host.name}: ${POD_IFNAME} in ${netnsPath} is not a veth`);
        const hostLinks = (await run(hostArgv(host, ["ip", "-o", "link", "show"]))).stdout.split("\n").map(parseLink);
        const hostEnd = hostLinks.find((l) => l?.index === podLink.peer);
        if (!hostEnd) throw new Error(`${host.name}: no interface with index ${podLink.peer}, the peer of ${POD_IFNAME} in ${netnsPath}`);
        return { netnsPath, hostIfname: hostEnd.name };
    }
    throw new Error(
        `${host.name}: no sandbox namespace under ${CNI_NETNS_DIR} holds ${ip} on ${POD_IFNAME} (looked at ${namespaces.length}: ${namespaces.join(", ") || "none"})`,
    );
}
