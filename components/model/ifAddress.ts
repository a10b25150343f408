// A port's address as OVN holds it (address, CIDR, MAC), and the MAC ovnkube gives a router port
// with an address of each family: the IPv4 address's whenever there is one
// (ovn/base_network_controller.go:563 at v1.3.0, "logical router port MAC is based on IPv4 subnet
// if there is one, else IPv6"; the join and transit ports take the first of their addresses,
// which util/node_annotations.go:744 lists IPv4 first).
import { addressAt, familyOf, macFromIp, parseNetwork } from "../values";
import type { IfAddress } from "./types";

export function ifAddress(ip: string, prefix: number): IfAddress {
    return { ip, cidr: `${ip}/${prefix}`, mac: macFromIp(ip) };
}

/** The n-th address of a network with its prefix: a router port's (1) or the management port's (2) in a node subnet. */
export function ifAddressAt(cidr: string, n: number): IfAddress {
    const net = parseNetwork(cidr);
    return ifAddress(addressAt(net, n), net.prefix);
}

export function routerPortMac(addresses: readonly IfAddress[]): string {
    return (addresses.find((a) => familyOf(a.ip) === "ipv4") ?? addresses[0]).mac;
}
