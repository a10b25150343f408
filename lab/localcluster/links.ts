// Root-namespace links and routes, read through iproute2's JSON output.
import { check, run } from "./run";

interface IpLink {
    ifname: string;
}

/** Names of links in the root namespace equal to `name` or starting with `prefix`. */
export async function listLinks(name: string, prefix: string): Promise<string[]> {
    const links = JSON.parse(await check(["ip", "-j", "link", "show"])) as IpLink[];
    return links
        .map((l) => l.ifname)
        .filter((n) => n === name || n.startsWith(prefix))
        .sort();
}

export async function deleteLink(name: string): Promise<void> {
    const r = await run(["ip", "link", "delete", "dev", name]);
    // A veth vanishes by itself once its peer's namespace is gone; that race is not an error.
    if (r.code !== 0 && !/Cannot find device|does not exist|No such device/.test(r.stderr)) {
        throw new Error(`ip link delete dev ${name} failed: ${r.stderr.trim()}`);
    }
}

/** Destinations of every IPv4 route in the root namespace (all tables), as CIDRs. */
export async function rootRouteDestinations(): Promise<string[]> {
    const routes = JSON.parse(await check(["ip", "-j", "-4", "route", "show", "table", "all"])) as Array<{ dst: string }>;
    return routes
        .map((r) => r.dst)
        .filter((d) => d && d !== "default")
        .map((d) => (d.includes("/") ? d : `${d}/32`));
}

/** Turns off transmit checksum offload: userspace OVS forwards packets whose checksums the kernel left unfinished. */
export async function txChecksumOff(dev: string, netns?: string): Promise<void> {
    const argv = ["ethtool", "-K", dev, "tx", "off"];
    await check(netns ? ["ip", "netns", "exec", netns, ...argv] : argv);
}
