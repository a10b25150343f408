// Every listener the stack puts on a host (sshd, ovnkube-identity's webhook on masters, the NB and SB
// ovsdb-servers, their raft ports, the API server when its URL names the host): two on one host and port cannot both bind, and the
// second one's start fails half-way through an `up`. One relation over all listeners of a host.
import { tunnelIpOf } from "../../model/nodes";
import { urlIpv4 } from "./addresses";
import { WEBHOOK_PORT } from "../../kube/identity";
import type { StackConfigInput } from "../../config/types";

type Add = (path: string, message: string) => void;

interface Listener {
    /** The config path that decides the port. */
    path: string;
    port: number;
    what: string;
}

/** The port of an http(s) URL, explicit or the scheme's. */
export function urlPort(url: string): number {
    const m = /^(https?):\/\/[^/:]+(?::(\d+))?/.exec(url);
    return m?.[2] !== undefined ? Number(m[2]) : m?.[1] === "https" ? 443 : 80;
}

/** The listeners on node i, in the order they are set up (sshd first: it is there before the stack). */
function listenersOf(cfg: StackConfigInput, i: number, clustered: boolean, centralized: boolean, webhook: boolean): Listener[] {
    const n = cfg.nodes[i];
    const t = cfg.ovnTransport ?? {};
    // ovnkube-identity's port is fixed (upstream's), so it comes first: a clash is reported at the setting that can move.
    const out: Listener[] = webhook && n.roles.includes("master") ? [{ path: "ovnkube.identity", port: WEBHOOK_PORT, what: `ovnkube-identity's webhook port on nodes[${i}] (fixed)` }] : [];
    out.push({ path: n.port !== undefined ? `nodes[${i}].port` : "ssh.port", port: n.port ?? cfg.ssh?.port ?? 22, what: `the SSH port of nodes[${i}]` });
    if (centralized && n.roles.includes("central")) {
        out.push({ path: "ovnTransport.nbPort", port: t.nbPort ?? 6641, what: "nbPort" }, { path: "ovnTransport.sbPort", port: t.sbPort ?? 6642, what: "sbPort" });
        if (clustered)
            out.push({ path: "ovnTransport.nbRaftPort", port: t.nbRaftPort ?? 6643, what: "nbRaftPort" }, { path: "ovnTransport.sbRaftPort", port: t.sbRaftPort ?? 6644, what: "sbRaftPort" });
    }
    const api = urlIpv4(cfg.apiServer.url);
    if (api !== undefined && (api === n.address || api === tunnelIpOf(n))) out.push({ path: "apiServer.url", port: urlPort(cfg.apiServer.url), what: `the API server's port on nodes[${i}]` });
    return out;
}

/** Relation: on every host, each listener has a port of its own; reported at the later listener. */
export function listenerProblems(cfg: StackConfigInput, centralized: boolean, add: Add, webhook = false): void {
    const clustered = cfg.nodes.filter((n) => n.roles.includes("central")).length > 1;
    const reported = new Set<string>();
    cfg.nodes.forEach((_, i) => {
        const listeners = listenersOf(cfg, i, clustered, centralized, webhook);
        listeners.forEach((l, k) => {
            const before = listeners.slice(0, k).find((o) => o.port === l.port);
            const message = `${l.port} is also ${before?.what}: both listen on this host, and the second could not bind it; choose another port`;
            if (before && !reported.has(`${l.path}\0${message}`)) {
                reported.add(`${l.path}\0${message}`);
                add(l.path, message);
            }
        });
    });
}
