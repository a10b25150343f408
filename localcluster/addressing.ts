// The underlay address plan of a local cluster. Pure functions: no I/O.
import { createHash } from "node:crypto";
import { fromInt, isIpv4, toInt } from "../components/model/cidr";

export interface Ipv4Net {
    /** Network address as an unsigned 32-bit number. */
    base: number;
    prefixLen: number;
}

export interface AddressPlan {
    /** CIDR of the underlay, e.g. 172.31.7.0/24. */
    subnet: string;
    prefixLen: number;
    /** The "external" router: the hosts' default gateway (first address). */
    external: string;
    /** The root namespace's address on the bridge, from which tools and users reach the hosts (last address). */
    operator: string;
    /** One address per host, from the 11th address on. */
    hosts: string[];
}

/** Hosts start at this offset so that low addresses stay free for routers. */
const FIRST_HOST_OFFSET = 11;

// Address arithmetic is the model's (components/model/cidr.ts, on ipaddr.js); only the local
// underlay's plan lives here.
export { isIpv4 };

export function ipToInt(text: string): number {
    if (!isIpv4(text)) throw new Error(`not an IPv4 address: ${JSON.stringify(text)}`);
    return toInt(text);
}

export const intToIp = fromInt;

/** Parses `a.b.c.d/len`; with `strict`, host bits must be zero. */
export function parseCidr(text: string, strict = true): Ipv4Net {
    const m = /^([0-9.]+)\/(\d{1,2})$/.exec(text);
    const prefixLen = m ? Number(m[2]) : NaN;
    if (!m || !isIpv4(m[1]) || prefixLen > 32) throw new Error(`not an IPv4 CIDR: ${JSON.stringify(text)}`);
    const size = 2 ** (32 - prefixLen);
    const addr = ipToInt(m[1]);
    const base = addr - (addr % size);
    if (strict && base !== addr) throw new Error(`${text} has host bits set; the network is ${intToIp(base)}/${prefixLen}`);
    return { base, prefixLen };
}

export function overlaps(a: string, b: string): boolean {
    const x = parseCidr(a, false);
    const y = parseCidr(b, false);
    const len = Math.min(x.prefixLen, y.prefixLen);
    const size = 2 ** (32 - len);
    return Math.floor(x.base / size) === Math.floor(y.base / size);
}

export function contains(cidr: string, ip: string): boolean {
    return overlaps(cidr, `${ip}/32`);
}

/** A /24 in 172.31.0.0/16 chosen from the id, so that clusters with different ids usually differ. */
export function defaultSubnet(id: string): string {
    const third = (createHash("sha256").update(id).digest().readUInt16BE(0) % 254) + 1;
    return `172.31.${third}.0/24`;
}

export function planAddresses(subnet: string, hosts: number): AddressPlan {
    const net = parseCidr(subnet);
    if (net.prefixLen < 16 || net.prefixLen > 28) {
        throw new Error(`underlay subnet ${subnet}: prefix length must be between 16 and 28`);
    }
    const size = 2 ** (32 - net.prefixLen);
    // Usable: 1 .. size-2; hosts take FIRST_HOST_OFFSET.., the operator the last usable one.
    const room = size - 2 - FIRST_HOST_OFFSET;
    if (hosts > room) throw new Error(`underlay subnet ${subnet} has room for ${room} hosts, not ${hosts}`);
    return {
        subnet,
        prefixLen: net.prefixLen,
        external: intToIp(net.base + 1),
        operator: intToIp(net.base + size - 2),
        hosts: Array.from({ length: hosts }, (_, i) => intToIp(net.base + FIRST_HOST_OFFSET + i)),
    };
}
