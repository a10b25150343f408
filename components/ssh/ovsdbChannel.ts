// Opening an OVSDB server on a host as an OvsdbTransactor over the pooled SSH connection.
//
// Preferred: a forwarded channel straight to the server's unix socket (OpenSSH's
// direct-streamlocal) or TCP port, carrying JSON-RPC for as long as it stays open. When the
// host's sshd forbids forwarding, the fallback runs `ovsdb-client transact` there per transaction.
import type { ClientChannel } from "ssh2";
import { OvsdbClient, type OvsdbTransactor } from "../ovsdb/client";
import { OvsdbError } from "../ovsdb/errors";
import type { SshTarget } from "../model/sshTarget";
import { SshChannelError } from "./errors";
import { openChannel, sshAddress, type SshLease } from "./pool";
import { RemoteOvsdbClient } from "./remoteOvsdbClient";

/** Where the OVSDB server listens, as seen from the SSH host. */
export type OvsdbEndpoint = { unixSocket: string } | { tcpHost: string; tcpPort: number };

export { NB_SOCKET } from "../model/names";

/** The endpoint in ovsdb-client's notation (unix:PATH, tcp:HOST:PORT), after checking it is safe to pass on. */
export function ovsdbRemote(endpoint: OvsdbEndpoint): string {
    if ("unixSocket" in endpoint) {
        if (!/^\/[A-Za-z0-9._/-]+$/.test(endpoint.unixSocket)) {
            throw new OvsdbError(`invalid OVSDB unix socket path ${JSON.stringify(endpoint.unixSocket)}`);
        }
        return `unix:${endpoint.unixSocket}`;
    }
    const { tcpHost, tcpPort } = endpoint;
    if (!/^[A-Za-z0-9.:-]+$/.test(tcpHost) || !Number.isInteger(tcpPort) || tcpPort < 1 || tcpPort > 65535) {
        throw new OvsdbError(`invalid OVSDB TCP endpoint ${JSON.stringify(`${tcpHost}:${tcpPort}`)}`);
    }
    return tcpHost.includes(":") ? `tcp:[${tcpHost}]:${tcpPort}` : `tcp:${tcpHost}:${tcpPort}`;
}

/** Opens a new (unpooled) session to the OVSDB server at `endpoint` on the SSH host. */
export async function openOvsdbOverSsh(target: SshTarget, privateKey: string, endpoint: OvsdbEndpoint): Promise<OvsdbTransactor> {
    const remote = ovsdbRemote(endpoint);
    const label = `${remote} via ${sshAddress(target)}`;
    try {
        const { channel, done, retain } = await openChannel<ClientChannel>(target, privateKey, "forward", (client, callback) =>
            "unixSocket" in endpoint
                ? client.openssh_forwardOutStreamLocal(endpoint.unixSocket, callback)
                : client.forwardOut("127.0.0.1", 0, endpoint.tcpHost, endpoint.tcpPort, callback),
        );
        // The channel stays open; the connection is held (keeps the process alive) only while a
        // request is pending, so an idle session never stops a process from exiting.
        let busy: SshLease | undefined;
        const client = new OvsdbClient(channel, {
            label,
            onBusy: (isBusy) => {
                busy?.release();
                busy = isBusy ? retain() : undefined;
            },
        });
        done();
        return client;
    } catch (forwardError) {
        // Connection-level failures (unreachable, host key, login) are final. A refused channel
        // is either forwarding being forbidden or the server being down: OpenSSH answers both
        // with the same reason code, so ask ovsdb-client on the host, which tells them apart.
        if (!(forwardError instanceof SshChannelError)) throw forwardError;
        const fallback = new RemoteOvsdbClient(target, privateKey, remote);
        try {
            await fallback.probe();
        } catch (probeError) {
            throw new OvsdbError(
                `cannot reach ${label}: forwarding failed (${forwardError.message}), and ${(probeError as Error).message}`,
            );
        }
        return fallback;
    }
}
