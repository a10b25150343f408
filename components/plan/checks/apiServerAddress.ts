// Where ovnkube finds the API server: its pods use the host network, and ovnkube-node runs before
// the node's service proxying exists (it is what provides it). So `apiServer.url` must name an
// address every node reaches from its own network namespace: not itself (loopback), not a name
// only the cluster's DNS answers, not a Service address.
import { addressAt, containsIp, type Cidr4 } from "../../values";
import { urlHost } from "./addresses";
import type { StackConfigInput } from "../../config/types";

type Add = (path: string, message: string) => void;

const PATH = "apiServer.url";
const DO = "give the address of the API server (or its load balancer) that every node reaches on its own network";

/** Names every resolver answers with the host itself (RFC 6761 .localhost, Debian's /etc/hosts). */
const isLoopbackName = (host: string): boolean =>
    /^(?:localhost|ip6-localhost|ip6-loopback|localhost\.localdomain)$|\.localhost$/i.test(host);

/** Names only the cluster's DNS answers: the kubernetes Service and anything under svc or the cluster domain. */
const isClusterName = (host: string): boolean => /^kubernetes(?:\.default)?$|\.svc$|\.svc\.|\.cluster\.local$/i.test(host);

/** Relation (ovnkube mode): the API server's host is reachable from every node's host network. */
export function apiServerAddressProblems(cfg: StackConfigInput, services: ReadonlyArray<Cidr4 | undefined>, add: Add): void {
    const host = urlHost(cfg.apiServer.url);
    const service = services.find((s) => s && host !== undefined && containsIp(s, host));
    if (host === undefined) return;
    if (isLoopbackName(host))
        add(
            PATH,
            `${host} names each node itself, and ovnkube's pods use the host network: only a node running an API server would reach one; ${DO}`,
        );
    else if (isClusterName(host))
        add(
            PATH,
            `${host} is a name of the cluster's own DNS, which ovnkube (on the host network, before the cluster's network exists) cannot resolve; ${DO}`,
        );
    else if (service)
        add(
            PATH,
            `${host} is a Service address in serviceSubnet ${service.text}${host === addressAt(service, 1) ? " (the kubernetes Service's VIP)" : ""}, which only works once ovnkube runs; ${DO}`,
        );
}
