// The IPv6 side of the demonstration's checks, for pods with an address of each family (dual
// stack): every host and pod pings every pod's IPv6 address (ping6); TCP between two pods over
// IPv6 keeps the client's address; a dual-stack Service answers at its IPv6 ClusterIP; and the
// outside namespace, reached at its IPv6 address, sees the node's IPv6 address (SNAT per family).
// It reads no plan: the addresses come from the pods and the hosts.
import { CHECK_PORT, exchangeOk, formatChecks, pingMatrix, tcpExchange, type Exchange, type PingMatrix } from "./checks";
import type { PodRef } from "./pods";
import { findHost, hostIp6, type LocalCluster } from "./state";

export interface Ipv6Report {
    matrix: PingMatrix;
    podTcp: Exchange;
    service?: Exchange;
    outside: Exchange;
    allOk: boolean;
}

/** A pod's IPv6 address among its addresses; throws naming the pod when it has none. */
export function ipv6Of(pod: PodRef & { ips: readonly string[] }): string {
    const ip = pod.ips.find((a) => a.includes(":"));
    if (!ip) throw new Error(`pod ${pod.namespace}/${pod.pod} on ${pod.node} has no IPv6 address (addresses: ${pod.ips.join(", ")})`);
    return ip;
}

/**
 * The checks over IPv6 for pods on different nodes (the first is the client, the second the
 * server) and, given it, the IPv6 ClusterIP of a Service in front of the second (port CHECK_PORT).
 */
export async function ipv6Report(
    cluster: LocalCluster,
    pods: ReadonlyArray<PodRef & { ips: readonly string[] }>,
    serviceIp6?: string,
): Promise<Ipv6Report> {
    const label = (p: PodRef) => `${p.namespace}_${p.pod}`;
    const matrix = await pingMatrix(
        cluster,
        [
            ...cluster.hosts.map((h) => ({ label: h.name, from: h.name as string | PodRef })),
            ...pods.map((p) => ({ label: label(p), from: p as PodRef })),
        ],
        pods.map((p) => ({ label: label(p), ip: ipv6Of(p) })),
        45,
    );
    const [a, b] = pods;
    const podTcp = { ...(await tcpExchange(cluster, { pod: b }, ipv6Of(b), { pod: a }, CHECK_PORT)), expected: ipv6Of(a) };
    const service =
        serviceIp6 === undefined
            ? undefined
            : { ...(await tcpExchange(cluster, { pod: b }, serviceIp6, { pod: a }, CHECK_PORT)), expected: ipv6Of(a) };
    const outsideIp = cluster.external.ip6;
    if (!outsideIp) throw new Error(`local cluster ${cluster.id} has no IPv6 underlay: the outside has no IPv6 address`);
    const outside = {
        ...(await tcpExchange(cluster, { external: true }, outsideIp, { pod: a }, CHECK_PORT)),
        expected: hostIp6(cluster, findHost(cluster, a.node)),
    };
    return {
        matrix,
        podTcp,
        service,
        outside,
        allOk: matrix.allOk && exchangeOk(podTcp) && exchangeOk(outside) && (!service || exchangeOk(service)),
    };
}

export function formatIpv6Report(r: Ipv6Report): string {
    return formatChecks(r.matrix, [
        ["TCP pod → pod on another node over IPv6", r.podTcp],
        ["TCP pod → the Service's IPv6 ClusterIP", r.service],
        ["TCP pod → outside over IPv6 (SNAT to the node's IPv6 address)", r.outside],
    ]).join("\n");
}
