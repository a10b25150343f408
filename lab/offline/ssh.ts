// One SSH exec the way @pulumi/command's provider runs a remote.Command: a fresh connection, one
// session, `environment` as SSH "env" requests (sshd honours only names its AcceptEnv allows, as
// with the real provider), the command string as the exec request, stdin written then closed.
// Host keys as the provider checks them (pulumi-command v1.2.1 connection.go): `connection.hostKey`
// is a key line, only its type is offered, and any other key is refused before authenticating.
// Where a program gives no hostKey the provider accepts any key; this stand-in still holds the
// stack's nodes[].hostKey pin then (unless the stack waives checks), so it never logs in unverified.
import { Client } from "ssh2";
import { hostKeyAlgorithms, hostKeyRefusal, parseHostKeyLine, ssh2PrivateKey, sshFingerprint } from "@ovn-kubernetes-as-code/cluster/ssh";

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

export interface SshRun {
    code: number | null;
    signal?: string;
    stdout: string;
    stderr: string;
}

const READY_TIMEOUT_MS = 15000;

/** What the host must present: the connection's key line, else the stack's pin for host:port. */
function expectedKey(conn: SshConnection, policy: HostKeyPolicy) {
    const hostKey = conn.hostKey ?? policy.pins[`${conn.host}:${conn.port}`];
    // Checks are waived only where the stack says so and the program pins nothing.
    return { host: conn.host, port: conn.port, hostKey, insecureIgnoreHostKey: conn.hostKey === undefined && policy.insecure };
}

export function sshRun(
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
            return Promise.reject(new Error(`SSH ${where}: failed to parse connection.hostKey: ${(e as Error).message}`));
        }
    }
    return new Promise((resolve, reject) => {
        const client = new Client();
        let refusal: string | undefined;
        let settled = false;
        const fail = (message: string) => {
            if (settled) return;
            settled = true;
            client.end();
            reject(new Error(message));
        };
        client.on("error", (e: Error) => fail(refusal ?? `SSH ${where}: ${e.message}`));
        client.on("ready", () => {
            client.exec(command, { env: opts.env }, (err, channel) => {
                if (err) return fail(`SSH ${where}: ${err.message}`);
                const out: Buffer[] = [];
                const errOut: Buffer[] = [];
                let code: number | null | undefined;
                let signal: string | undefined;
                channel.on("data", (b: Buffer) => out.push(b));
                channel.stderr.on("data", (b: Buffer) => errOut.push(b));
                channel.on("exit", (c: number | null, s?: string) => {
                    code = c;
                    signal = s;
                });
                channel.on("close", () => {
                    if (code === undefined) return fail(`SSH ${where}: connection lost before the command finished`);
                    settled = true;
                    client.end();
                    const result: SshRun = {
                        code,
                        stdout: Buffer.concat(out).toString("utf8"),
                        stderr: Buffer.concat(errOut).toString("utf8"),
                    };
                    if (signal) result.signal = signal;
                    resolve(result);
                });
                // Like the provider: stdin only when non-empty, and always end of file after it.
                channel.end(opts.stdin ? opts.stdin : undefined);
            });
        });
        client.connect({
            host: conn.host,
            port: conn.port,
            username: conn.user,
            privateKey: conn.privateKey === undefined ? undefined : ssh2PrivateKey(conn.privateKey),
            password: conn.password,
            readyTimeout: READY_TIMEOUT_MS,
            ...(serverHostKey ? { algorithms: { serverHostKey: serverHostKey as never } } : {}),
            hostVerifier: (key: Buffer) => {
                refusal = hostKeyRefusal(expected, sshFingerprint(key));
                return refusal === undefined;
            },
        });
    });
}
