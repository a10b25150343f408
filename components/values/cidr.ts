// IPv4 CIDR arithmetic on top of ipaddr.js: parsing, containment, overlap and the n-th
// address or sub-network, expressed as 32-bit integers where ipaddr.js has no such operation.
import * as ipaddr from "ipaddr.js";

export interface Cidr4 {
    /** Network address as an unsigned 32-bit integer. */
    base: number;
    prefix: number;
    text: string;
}

export function toInt(ip: string): number {
    const b = ipaddr.IPv4.parse(ip).toByteArray();
    return ((b[0] << 24) | (b[1] << 16) | (b[2] << 8) | b[3]) >>> 0;
}

export function fromInt(n: number): string {
    return [n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255].join(".");
}

export function size(prefix: number): number {
    return 2 ** (32 - prefix);
}

/** Parses `a.b.c.d/len`; throws a message (without a path) when it is not an IPv4 CIDR. */
export function parseCidr(text: string): Cidr4 {
    if (!ipaddr.IPv4.isValidCIDR(text)) throw new Error(`"${text}" is not an IPv4 CIDR`);
    const [addr, prefix] = ipaddr.IPv4.parseCIDR(text);
    return { base: toInt(addr.toString()), prefix, text };
}

/** Parses a CIDR that must name a network (host bits zero), e.g. 10.128.0.0/14. */
export function parseNetwork(text: string): Cidr4 {
    const c = parseCidr(text);
    const network = ipaddr.IPv4.networkAddressFromCIDR(text).toString();
    if (toInt(network) !== c.base) throw new Error(`"${text}" is not a network address (did you mean ${network}/${c.prefix}?)`);
    return c;
}

/** The network that an address with prefix lies in: 10.0.0.7/24 → 10.0.0.0/24. */
export function networkOf(text: string): Cidr4 {
    const c = parseCidr(text);
    return parseNetwork(`${ipaddr.IPv4.networkAddressFromCIDR(text).toString()}/${c.prefix}`);
}

export function isIpv4(text: string): boolean {
    return ipaddr.IPv4.isValidFourPartDecimal(text);
}

export function contains(outer: Cidr4, inner: Cidr4): boolean {
    return inner.prefix >= outer.prefix && inner.base - outer.base >= 0 && inner.base - outer.base < size(outer.prefix);
}

export function containsIp(net: Cidr4, ip: string): boolean {
    return ipaddr.IPv4.parse(ip).match(ipaddr.IPv4.parse(fromInt(net.base)), net.prefix);
}

export function overlaps(a: Cidr4, b: Cidr4): boolean {
    return contains(a, b) || contains(b, a);
}

/** Whether two CIDRs share an address; host bits are ignored (a route's 10.0.0.7/24 is 10.0.0.0/24). */
export function cidrsOverlap(a: string, b: string): boolean {
    return overlaps(networkOf(a), networkOf(b));
}

/** ipaddr.js's name for the range an address lies in: "unicast", "private", "loopback", "linkLocal", … */
export function addressRange(ip: string): string {
    return ipaddr.IPv4.parse(ip).range();
}

/** The i-th sub-network of length `prefix` inside `net`. */
export function subnetAt(net: Cidr4, prefix: number, i: number): Cidr4 {
    const base = (net.base + i * size(prefix)) >>> 0;
    return { base, prefix, text: `${fromInt(base)}/${prefix}` };
}

/** The i-th address of `net` (0 is the network address). */
export function addressAt(net: Cidr4, i: number): string {
    return fromInt((net.base + i) >>> 0);
}

/** ovn-kubernetes derives MACs from IPv4 addresses (0a:58 + the four bytes): no state to keep. */
export function macFromIp(ip: string): string {
    return [
        "0a",
        "58",
        ...ipaddr.IPv4.parse(ip)
            .toByteArray()
            .map((b) => b.toString(16).padStart(2, "0")),
    ].join(":");
}
