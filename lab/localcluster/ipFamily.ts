// The IP families a local cluster runs: the underlay, the control plane and the stack file follow
// one choice. Pure.
import * as ipaddr from "ipaddr.js";

/** ipv4: today's IPv4 lab; dual: both families, IPv4 first; ipv6: IPv6 only on the cluster's side (hosts keep IPv4 for the operator). */
export type IpFamily = "ipv4" | "dual" | "ipv6";
export const IP_FAMILIES: readonly IpFamily[] = ["ipv4", "dual", "ipv6"];
export const DEFAULT_IP_FAMILY: IpFamily = "ipv4";

export function checkIpFamily(value: string): IpFamily {
    if (!(IP_FAMILIES as readonly string[]).includes(value))
        throw new Error(`ip family ${JSON.stringify(value)}: use ${IP_FAMILIES.join(", ")}`);
    return value as IpFamily;
}

/** Whether the underlay carries IPv6 addresses. */
export const hasIpv6 = (family: IpFamily): boolean => family !== "ipv4";

/**
 * Picks, in the cluster's family order (the primary family first), the values of each family it
 * runs: [v4] for ipv4, [v4, v6] for dual, [v6] for ipv6.
 */
export function perFamily<T>(family: IpFamily, v4: T, v6: T): T[] {
    return family === "ipv4" ? [v4] : family === "dual" ? [v4, v6] : [v6];
}

/** The primary family's value. */
export function primary<T>(family: IpFamily, v4: T, v6: T): T {
    return perFamily(family, v4, v6)[0];
}

/** An address as it stands in a URL's host part ([::1] for IPv6). */
export function hostInUrl(ip: string): string {
    return ip.includes(":") ? `[${ip}]` : ip;
}

/** An IPv6 address in its canonical text (RFC 5952), as Kubernetes and the kernel print it: nothing else reaches a command line. */
export function isCanonicalIpv6(ip: string): boolean {
    return ipaddr.IPv6.isValid(ip) && ipaddr.IPv6.parse(ip).toRFC5952String() === ip;
}
