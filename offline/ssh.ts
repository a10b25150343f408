// One SSH exec the way @pulumi/command's provider runs a remote.Command: a fresh connection, one
// session, `environment` as SSH "env" requests (sshd honours only names its AcceptEnv allows, as
// with the real provider), the command string as the exec request, stdin written then closed.
// Unlike the provider, the host key is checked against the stack's pin before authenticating.
import { Client } from "ssh2";
import { hostKeyRefusal, sshFingerprint } from "../components/ssh/hostKey";

export interface SshConnection {
    host: string;
    port: number;
    user: string;
    privateKey?: string;
    password?: string;
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

export function sshRun(conn: SshConnection, command: string, policy: HostKeyPolicy, opts: { stdin?: string; env?: Record<string, string> } = {}): Promise<SshRun> {
    const where = `${conn.user}@${conn.host}:${conn.port}`;
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
                    const result: SshRun = { code, stdout: Buffer.concat(out).toString("utf8"), stderr: Buffer.concat(errOut).toString("utf8") };
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
            privateKey: conn.privateKey,
            password: conn.password,
            readyTimeout: READY_TIMEOUT_MS,
            hostVerifier: (key: Buffer) => {
                const target = { host: conn.host, port: conn.port, hostKey: policy.pins[`${conn.host}:${conn.port}`], insecureIgnoreHostKey: policy.insecure };
                refusal = hostKeyRefusal(target, sshFingerprint(key));
                return refusal === undefined;
            },
        });
    });
}
