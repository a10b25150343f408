// One SSH exec the way @pulumi/command's provider runs a remote.Command: a fresh connection, one
// session, `environment` as SSH "env" requests (sshd honours only names its AcceptEnv allows, as
// with the real provider), the command string as the exec request, stdin written then closed; the
// dial tried as often and as far apart as the provider tries it.
// Host keys as the provider checks them (pulumi-command v1.2.1 connection.go): `connection.hostKey`
// is a key line, only its type is offered, and any other key is refused before authenticating.
// Where a program gives no hostKey the provider accepts any key; this stand-in still holds the
// stack's nodes[].hostKey pin then (unless the stack waives checks), so it never logs in unverified.
import { Client } from "ssh2";
import {
    collectExec,
    hostKeyAlgorithms,
    hostKeyRefusal,
    parseHostKeyLine,
    ssh2PrivateKey,
    sshFingerprint,
    type ExecResult,
} from "@ovn-kubernetes-as-code/cluster/ssh";

export interface SshConnection {
    host: string;
    port: number;
    user: string;
    privateKey?: string;
    password?: string;
    /** The provider's `connection.hostKey`: the server's key line. */
    hostKey?: string;
}

export interface HostKeyPolicy {
    /** "host:port" → pinned key line or SHA256 fingerprint. */
    pins: Record<string, string>;
    /** The stack waived checks (ssh.insecureIgnoreHostKey). */
    insecure: boolean;
}

export type SshRun = ExecResult;

const READY_TIMEOUT_MS = 15000;
/**
 * A peer that stops answering mid-command ends the run as the provider's does: it dials with Go's
 * net defaults (golang.org/x/crypto/ssh Dial → net.DialTimeout), whose TCP keep-alive probes start
 * after 15 s idle, 15 s apart, and give up after 9 (Go ≥ 1.23 net/tcpsock.go KeepAliveConfig;
 * pulumi-command v1.2.1 builds with Go 1.25). Node cannot set the probe interval and count on a
 * socket, so SSH keep-alives of the same rhythm stand in: 15 + 9 × 15 = 150 s of silence.
 */
const KEEPALIVE_INTERVAL_MS = 15000;
const KEEPALIVE_COUNT_MAX = 9;
export const SILENT_PEER_BOUND_S = (KEEPALIVE_INTERVAL_MS * (KEEPALIVE_COUNT_MAX + 1)) / 1000;

/** What the host must present: the connection's key line, else the stack's pin for host:port. */
function expectedKey(conn: SshConnection, policy: HostKeyPolicy) {
    const hostKey = conn.hostKey ?? policy.pins[`${conn.host}:${conn.port}`];
    // Checks are waived only where the stack says so and the program pins nothing.
    return { host: conn.host, port: conn.port, hostKey, insecureIgnoreHostKey: conn.hostKey === undefined && policy.insecure };
}

/** The provider's dial: up to 10 tries (`dialErrorLimit`), 100 ms apart growing 1.5× to at most 5 s (pulumi-command v1.2.1 remote/connection.go:150-205 with pulumi sdk retry.Until's defaults, go/common/util/retry/until.go:40-42). */
const DIAL_TRIES = 10;
const dialDelayMs = (failed: number) => Math.min(100 * 1.5 ** (failed - 1), 5000);
/** How long a dial to a silent host takes to fail: every try's handshake timeout and the delays between. */
export const SILENT_DIAL_BOUND_S = Math.ceil(
    (DIAL_TRIES * READY_TIMEOUT_MS + Array.from({ length: DIAL_TRIES - 1 }, (_, i) => dialDelayMs(i + 1)).reduce((a, b) => a + b, 0)) /
        1000,
);

/** One dial: a logged-in client, or the reason it is not (the host key's refusal when that was it). */
function dialOnce(
    conn: SshConnection,
    where: string,
    expected: ReturnType<typeof expectedKey>,
    serverHostKey: string[] | undefined,
): Promise<Client> {
    return new Promise((resolve, reject) => {
        const client = new Client();
        let refusal: string | undefined;
        let ready = false;
        client.on("error", (e: Error) => {
            if (ready) return;
            client.destroy();
            reject(new Error(refusal ?? `SSH ${where}: ${e.message}`));
        });
        client.on("ready", () => {
            ready = true;
            resolve(client);
        });
        client.connect({
            host: conn.host,
            port: conn.port,
            username: conn.user,
            privateKey: conn.privateKey === undefined ? undefined : ssh2PrivateKey(conn.privateKey),
            password: conn.password,
            readyTimeout: READY_TIMEOUT_MS,
            keepaliveInterval: KEEPALIVE_INTERVAL_MS,
            keepaliveCountMax: KEEPALIVE_COUNT_MAX,
            ...(serverHostKey ? { algorithms: { serverHostKey: serverHostKey as never } } : {}),
            hostVerifier: (key: Buffer) => {
                refusal = hostKeyRefusal(expected, sshFingerprint(key));
                return refusal === undefined;
            },
        });
    });
}

async function dial(
    conn: SshConnection,
    where: string,
    expected: ReturnType<typeof expectedKey>,
    serverHostKey: string[] | undefined,
): Promise<Client> {
    for (let failed = 0; ;) {
        try {
            return await dialOnce(conn, where, expected, serverHostKey);
        } catch (err) {
            failed++;
            if (failed >= DIAL_TRIES) throw new Error(`after ${failed - 1} failed attempts: ${(err as Error).message}`);
            await new Promise((r) => setTimeout(r, dialDelayMs(failed)));
        }
    }
}

export async function sshRun(
    conn: SshConnection,
    command: string,
    policy: HostKeyPolicy,
    opts: { stdin?: string; env?: Record<string, string> } = {},
): Promise<SshRun> {
    const where = `${conn.user}@${conn.host}:${conn.port}`;
    const expected = expectedKey(conn, policy);
    let serverHostKey: string[] | undefined;
    if (conn.hostKey !== undefined) {
        try {
            serverHostKey = hostKeyAlgorithms(parseHostKeyLine(conn.hostKey).type);
        } catch (e) {
            // The provider fails the same way: "failed to parse host key".
            throw new Error(`SSH ${where}: failed to parse connection.hostKey: ${(e as Error).message}`);
        }
    }
    const client = await dial(conn, where, expected, serverHostKey);
    return new Promise((resolve, reject) => {
        let settled = false;
        // The socket is dropped, not ended: a peer gone silent never answers an end, and ssh2's
        // destroy() does nothing once end() ran (ssh2 lib/client.js Client.destroy). The command's
        // output is all in by then.
        const close = () => client.destroy();
        const fail = (message: string) => {
            if (settled) return;
            settled = true;
            close();
            reject(new Error(message));
        };
        client.on("error", (e: Error) =>
            fail(
                /keepalive timeout/i.test(e.message)
                    ? `SSH ${where}: no answer for ${SILENT_PEER_BOUND_S} s while the command ran; whether it finished on the host is unknown`
                    : `SSH ${where}: ${e.message}`,
            ),
        );
        client.exec(command, { env: opts.env }, (err, channel) => {
            if (err) return fail(`SSH ${where}: ${err.message}`);
            void collectExec(channel).then((result) => {
                if (result === undefined) return fail(`SSH ${where}: connection lost before the command finished`);
                settled = true;
                close();
                resolve(result);
            });
            // Like the provider: stdin only when non-empty, and always end of file after it.
            channel.end(opts.stdin ? opts.stdin : undefined);
        });
    });
}
