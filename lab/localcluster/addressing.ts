// The underlay address plan of a local cluster. Pure functions: no I/O.
import { createHash } from "node:crypto";
import * as ipaddr from "ipaddr.js";
import { addressAt, parseNetwork, size } from "@ovn-kubernetes-as-code/cluster/values";

export interface AddressPlan {
    /** CIDR of the underlay, e.g. 172.31.7.0/24. */
    subnet: string;
    prefixLen: number;
    /** The "external" router: the hosts' default gateway (first address); the second is the control plane's (controlPlaneAddress). */
    external: string;
    /** The root namespace's address on the bridge, from which tools and users reach the hosts (last address). */
    operator: string;
    /** One address per host, from the 11th address on. */
    hosts: string[];
}

/** Hosts start at this offset so that low addresses stay free for routers. */
const FIRST_HOST_OFFSET = 11;

// Address arithmetic is the shared one (components/values, on ipaddr.js); only the local
// underlay's plan lives here.

/** A /24 in 172.31.0.0/16 chosen from the id, so that clusters with different ids usually differ. */
export function defaultSubnet(id: string): string {
    const third = (createHash("sha256").update(id).digest().readUInt16BE(0) % 254) + 1;
    return `172.31.${third}.0/24`;
}

export function planAddresses(subnet: string, hosts: number): AddressPlan {
    const net = parseNetwork(subnet);
    // The IPv6 underlay is not given: it is derived from this one (planAddresses6).
    if (net.family !== "ipv4") throw new Error(`underlay subnet ${subnet} is not an IPv4 CIDR (--ip-family adds the IPv6 underlay)`);
    if (net.prefix < 16 || net.prefix > 28) {
        throw new Error(`underlay subnet ${subnet}: prefix length must be between 16 and 28`);
    }
    // Usable: 1 .. size-2; hosts take FIRST_HOST_OFFSET.., the operator the last usable one.
    const room = size(net.prefix) - 2 - FIRST_HOST_OFFSET;
    if (hosts > room) throw new Error(`underlay subnet ${subnet} has room for ${room} hosts, not ${hosts}`);
    return {
        subnet,
        prefixLen: net.prefix,
        external: addressAt(net, 1),
        operator: addressAt(net, size(net.prefix) - 2),
        hosts: Array.from({ length: hosts }, (_, i) => addressAt(net, FIRST_HOST_OFFSET + i)),
    };
}

/** The Kubernetes control plane's address in the underlay (./kube): the second. */
const CONTROL_PLANE_OFFSET = 2;

export function controlPlaneAddress(subnet: string): string {
    return addressAt(parseNetwork(subnet), CONTROL_PLANE_OFFSET);
}

/**
 * The `n`th (from 1) of the addresses between the control plane's and the first host's, which no
 * part of the lab takes: a second outside address a test gives the external namespace, or an
 * address ovnkube hands out (an egress IP). Pure.
 */
export function spareAddress(subnet: string, n: number): string {
    const spares = FIRST_HOST_OFFSET - CONTROL_PLANE_OFFSET - 1;
    if (!Number.isInteger(n) || n < 1 || n > spares) throw new Error(`spare address ${n}: the underlay keeps ${spares}, numbered from 1`);
    return addressAt(parseNetwork(subnet), CONTROL_PLANE_OFFSET + n);
}

/** The IPv6 underlay beside an IPv4 one: one /64, every address the twin of an IPv4 one. */
export interface AddressPlan6 {
    /** e.g. fd00:172:31:7::/64 beside 172.31.7.0/24. */
    subnet: string;
    prefixLen: 64;
    external: string;
    operator: string;
    hosts: string[];
}

/** The ULA /64 beside an IPv4 underlay: fd00 then its first three octets, each written as a group. */
function ipv6Prefix(subnet: string): string {
    const [a, b, c] = addressAt(parseNetwork(subnet), 0).split(".");
    return `fd00:${a}:${b}:${c}`;
}

export function ipv6Subnet(subnet: string): string {
    return canonical(`${ipv6Prefix(subnet)}::`) + "/64";
}

/** RFC 5952 text, as the kernel, the kubelet and ovnkube print an address. */
const canonical = (ip: string) => ipaddr.IPv6.parse(ip).toRFC5952String();

/**
 * The IPv6 twin of an address of the IPv4 underlay `subnet`: its offset in the subnet, written in
 * decimal digits as the last group, so 172.31.7.11 has fd00:172:31:7::11 (readable side by side).
 */
export function ipv6Twin(subnet: string, ipv4: string): string {
    const net = parseNetwork(subnet);
    const offset =
        ipaddr.IPv4.parse(ipv4)
            .toByteArray()
            .reduce((n, b) => n * 256 + b, 0) - Number(net.base);
    if (offset < 0 || offset >= size(net.prefix)) throw new Error(`${ipv4} is not in the underlay ${subnet}`);
    return canonical(`${ipv6Prefix(subnet)}::${offset}`);
}

/** The IPv6 plan beside an IPv4 plan: the same roles at the twin addresses. */
export function planAddresses6(plan: AddressPlan): AddressPlan6 {
    const twin = (ip: string) => ipv6Twin(plan.subnet, ip);
    return {
        subnet: ipv6Subnet(plan.subnet),
        prefixLen: 64,
        external: twin(plan.external),
        operator: twin(plan.operator),
        hosts: plan.hosts.map(twin),
    };
}
