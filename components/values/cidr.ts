// IPv4 and IPv6 CIDR arithmetic on top of ipaddr.js: parsing, containment, overlap and the n-th
// address or sub-network. ipaddr.js parses and classifies; it has no address arithmetic, so
// addresses are handled here as unsigned integers (bigint: IPv6 needs 128 bits).
import { createHash } from "node:crypto";
import * as ipaddr from "ipaddr.js";

/** An address family, by Kubernetes' names (Service ipFamilies: IPv4, IPv6) in lower case. */
export type IpFamily = "ipv4" | "ipv6";
export const IP_FAMILIES: readonly IpFamily[] = ["ipv4", "ipv6"];

export interface Cidr {
    family: IpFamily;
    /** Address length of the family: 32 or 128. */
    bits: number;
    /** Network address as an unsigned integer. */
    base: bigint;
    prefix: number;
    text: string;
}
/** The name the IPv4-only code grew up with. */
export type Cidr4 = Cidr;

const bitsOf = (family: IpFamily): number => (family === "ipv4" ? 32 : 128);

/** The family of an address or CIDR; undefined when it is neither. */
export function familyOf(text: string): IpFamily | undefined {
    const addr = text.split("/")[0];
    if (ipaddr.IPv4.isValidFourPartDecimal(addr)) return "ipv4";
    if (ipaddr.IPv6.isValid(addr) && !addr.includes("%")) return "ipv6";
    return undefined;
}

/** An address in one spelling (IPv6 lowercase and compressed), so two spellings of it compare equal; anything else as given. */
export function canonicalAddress(text: string): string {
    return familyOf(text) && !text.includes("/") ? ipaddr.parse(text).toString() : text;
}

export function toInt(ip: string): bigint {
    return ipaddr
        .parse(ip)
        .toByteArray()
        .reduce((n, b) => (n << 8n) | BigInt(b), 0n);
}

export function fromInt(n: bigint, family: IpFamily = "ipv4"): string {
    const length = bitsOf(family) / 8;
    const bytes = Array.from({ length }, (_, i) => Number((n >> BigInt(8 * (length - 1 - i))) & 255n));
    return ipaddr.fromByteArray(bytes).toString();
}

/** Addresses in a network of `prefix`: a number, exact for every power of two a plan uses. */
export function size(prefix: number, bits = 32): number {
    return 2 ** (bits - prefix);
}

/** Parses `addr/len` of either family; throws a message (without a path) when it is no CIDR. */
export function parseCidr(text: string): Cidr {
    const family = familyOf(text);
    if (!family || !ipaddr.isValidCIDR(text)) throw new Error(`"${text}" is not an IPv4 or IPv6 CIDR`);
    const [addr, prefix] = ipaddr.parseCIDR(text);
    return { family, bits: bitsOf(family), base: toInt(addr.toString()), prefix, text };
}

/** Parses a CIDR that must name a network (host bits zero), e.g. 10.128.0.0/14 or fd00:10::/48. */
export function parseNetwork(text: string): Cidr {
    const c = parseCidr(text);
    const network = networkAddress(c);
    if (network !== c.base) throw new Error(`"${text}" is not a network address (did you mean ${fromInt(network, c.family)}/${c.prefix}?)`);
    return c;
}

function networkAddress(c: Cidr): bigint {
    const hostBits = BigInt(c.bits - c.prefix);
    return (c.base >> hostBits) << hostBits;
}

/** The network that an address with prefix lies in: 10.0.0.7/24 → 10.0.0.0/24. */
export function networkOf(text: string): Cidr {
    const c = parseCidr(text);
    const base = networkAddress(c);
    return { ...c, base, text: `${fromInt(base, c.family)}/${c.prefix}` };
}

export function isIpv4(text: string): boolean {
    return ipaddr.IPv4.isValidFourPartDecimal(text);
}

export function isIpv6(text: string): boolean {
    return familyOf(text) === "ipv6" && !text.includes("/");
}

export function contains(outer: Cidr, inner: Cidr): boolean {
    if (outer.family !== inner.family || inner.prefix < outer.prefix) return false;
    const hostBits = BigInt(outer.bits - outer.prefix);
    return inner.base >> hostBits === outer.base >> hostBits;
}

export function containsIp(net: Cidr, ip: string): boolean {
    const family = familyOf(ip);
    return family === net.family && contains(net, { family, bits: net.bits, base: toInt(ip), prefix: net.bits, text: ip });
}

export function overlaps(a: Cidr, b: Cidr): boolean {
    return contains(a, b) || contains(b, a);
}

/** Whether two CIDRs share an address; host bits are ignored (a route's 10.0.0.7/24 is 10.0.0.0/24). */
export function cidrsOverlap(a: string, b: string): boolean {
    return overlaps(networkOf(a), networkOf(b));
}

/** ipaddr.js's name for the range an address lies in: "unicast", "private", "loopback", "linkLocal", "uniqueLocal", … */
export function addressRange(ip: string): string {
    return ipaddr.parse(ip).range();
}

/** The i-th sub-network of length `prefix` inside `net`. */
export function subnetAt(net: Cidr, prefix: number, i: number | bigint): Cidr {
    const base = net.base + BigInt(i) * (1n << BigInt(net.bits - prefix));
    return { family: net.family, bits: net.bits, base, prefix, text: `${fromInt(base, net.family)}/${prefix}` };
}

/** The i-th address of `net` (0 is the network address). */
export function addressAt(net: Cidr, i: number | bigint): string {
    return fromInt(net.base + BigInt(i), net.family);
}

/** The offset of `ip` inside `net` (addressAt's inverse). */
export function offsetOf(net: Cidr, ip: string): number {
    return Number(toInt(ip) - net.base);
}

/**
 * ovn-kubernetes derives MACs from addresses (util.IPAddrToHWAddr): 0a:58 and the four bytes of an
 * IPv4 address, or the first four bytes of the SHA-256 of an IPv6 address's text. No state to keep.
 */
export function macFromIp(ip: string): string {
    const addr = ipaddr.parse(ip);
    const bytes = addr.kind() === "ipv4" ? addr.toByteArray() : [...createHash("sha256").update(addr.toString()).digest().subarray(0, 4)];
    return ["0a", "58", ...bytes.map((b) => b.toString(16).padStart(2, "0"))].join(":");
}
