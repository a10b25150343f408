// The NB database of a resource's inputs, as a pooled OVSDB session over SSH (one SSH connection
// per host and one OVSDB session per socket per process, shared by every resource).
import type { OvsdbTransactor } from "../ovsdb/client";
import { northbound } from "../ssh/ovsdbPool";
import type { OvsdbEndpoint } from "../ssh/ovsdbChannel";
import type { NbConnection } from "./kinds/common";

export function endpointOf(socket: string): OvsdbEndpoint {
    if (!socket.startsWith("tcp:")) return { unixSocket: socket };
    const [, host, port] = socket.split(":");
    return { tcpHost: host, tcpPort: Number(port) };
}

export function nbSession(nb: NbConnection): OvsdbTransactor {
    return northbound(nb.ssh, nb.privateKey, endpointOf(nb.socket));
}
