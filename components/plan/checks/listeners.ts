// Every listener the stack puts on a host (sshd, the NB and SB ovsdb-servers, their raft ports, the
// API server when its URL names the host, and in ovnkube mode the identity webhook on masters and
// the EgressIP health check on every node): two on one host and port cannot both bind, and the
// second one's start fails half-way through an `up`. One relation over all listeners of a host.
import { isK8sNode, tunnelIpOf } from "../../model/nodes";
import { urlIpv4 } from "./addresses";
import { WEBHOOK_PORT } from "../../kube/identity";
import { EGRESS_IP_HEALTH_CHECK, featureSettings } from "../../config/features";
import type { StackConfigInput } from "../../config/types";

type Add = (path: string, message: string) => void;

interface Listener {
    /** The config path that decides the port. */
    path: string;
    port: number;
    what: string;
    /** A port ovnkube fixes: a clash is reported at the other listener's path, the one that can move. */
    fixed?: boolean;
}

interface Deployed {
    /** The centralized architecture: NB and SB listen on the centrals. */
    centralized: boolean;
    /** ovnkube runs on the Kubernetes nodes. */
    ovnkubeMode: boolean;
}

/** The port of an http(s) URL, explicit or the scheme's. */
export function urlPort(url: string): number {
    const m = /^(https?):\/\/[^/:]+(?::(\d+))?/.exec(url);
    return m?.[2] !== undefined ? Number(m[2]) : m?.[1] === "https" ? 443 : 80;
}

/** The listeners on node i, in the order they are set up (sshd first: it is there before the stack). */
function listenersOf(cfg: StackConfigInput, i: number, clustered: boolean, { centralized, ovnkubeMode }: Deployed): Listener[] {
    const n = cfg.nodes[i];
    const t = cfg.ovnTransport ?? {};
    const out: Listener[] = [
        {
            path: n.port !== undefined ? `nodes[${i}].port` : "ssh.port",
            port: n.port ?? cfg.ssh?.port ?? 22,
            what: `the SSH port of nodes[${i}]`,
        },
    ];
    if (centralized && n.roles.includes("central")) {
        out.push(
            { path: "ovnTransport.nbPort", port: t.nbPort ?? 6641, what: "nbPort" },
            { path: "ovnTransport.sbPort", port: t.sbPort ?? 6642, what: "sbPort" },
        );
        if (clustered)
            out.push(
                { path: "ovnTransport.nbRaftPort", port: t.nbRaftPort ?? 6643, what: "nbRaftPort" },
                { path: "ovnTransport.sbRaftPort", port: t.sbRaftPort ?? 6644, what: "sbRaftPort" },
            );
    }
    const api = urlIpv4(cfg.apiServer.url);
    if (api !== undefined && (api === n.address || api === tunnelIpOf(n)))
        out.push({ path: "apiServer.url", port: urlPort(cfg.apiServer.url), what: `the API server's port on nodes[${i}]` });
    if (!ovnkubeMode) return out;
    if (n.roles.includes("master") && cfg.ovnkube?.identity?.enabled !== false)
        out.push({
            path: "ovnkube.identity.enabled",
            port: WEBHOOK_PORT,
            what: `ovnkube-identity's webhook port on nodes[${i}] (fixed)`,
            fixed: true,
        });
    const features = cfg.ovnkube?.features;
    const healthCheck = features?.egressIpHealthCheckPort ?? EGRESS_IP_HEALTH_CHECK.chartDefault;
    if (isK8sNode(n) && featureSettings(features).egressIp && healthCheck !== 0)
        out.push({
            path: "ovnkube.features.egressIpHealthCheckPort",
            port: healthCheck,
            what: "the EgressIP health-check port (ovnkube.features.egressIpHealthCheckPort)",
        });
    return out;
}

/** Relation: on every host, each listener has a port of its own; reported at the later listener. */
export function listenerProblems(cfg: StackConfigInput, deployed: Deployed, add: Add): void {
    const clustered = cfg.nodes.filter((n) => n.roles.includes("central")).length > 1;
    const reported = new Set<string>();
    cfg.nodes.forEach((_, i) => {
        const listeners = listenersOf(cfg, i, clustered, deployed);
        listeners.forEach((l, k) => {
            const before = listeners.slice(0, k).find((o) => o.port === l.port);
            if (!before) return;
            // The one that can move is named: the later one, unless ovnkube fixes its port.
            const [at, other] = l.fixed ? [before, l] : [l, before];
            const message = `${l.port} is also ${other.what}: both listen on this host, and the second could not bind it; choose another port`;
            if (!reported.has(`${at.path}\0${message}`)) {
                reported.add(`${at.path}\0${message}`);
                add(at.path, message);
            }
        });
    });
}
