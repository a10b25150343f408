// Opening one authenticated SSH connection with the host key checked against the target's pin.
//
// The TCP socket is ours (handed to ssh2 as `sock`), so the pool can ref/unref it. Errors name
// user@host:port and, for host keys, fingerprints; the private key is redacted from any message.
import * as net from "net";
import { Client } from "ssh2";
import type { SshTarget } from "../model/sshTarget";
import { redactKey, SshError, SshHostKeyError, SshUnreachableError } from "./errors";
import { hostKeyRefusal, sshFingerprint } from "./hostKey";
import { ssh2PrivateKey } from "./commandKey";

const CONNECT_TIMEOUT_MS = 20000;

/** How errors and the pool name a target. */
export function sshAddress(target: SshTarget): string {
    return `${target.user}@${target.host}:${target.port}`;
}

export interface SshSession {
    client: Client;
    socket: net.Socket;
    /** Fingerprint (`SHA256:…`) of the host key the server presented. */
    presented: string;
}

/** Connects and logs in; `onLost` runs once the established connection errors or closes. */
export function connectSsh(target: SshTarget, privateKey: string, onLost: () => void): Promise<SshSession> {
    const where = sshAddress(target);
    return new Promise<SshSession>((resolve, reject) => {
        const socket = net.connect({ host: target.host, port: target.port });
        const client = new Client();
        let presented: string | undefined;
        let refusal: string | undefined;
        let settled = false;
        const fail = (error: Error) => {
            if (settled) return;
            settled = true;
            client.end();
            socket.destroy();
            reject(error);
        };
        const failWith = (message: string) => {
            if (refusal !== undefined && presented !== undefined) fail(new SshHostKeyError(refusal, presented));
            else fail(new SshError(`SSH connection to ${where} failed: ${redactKey(message, privateKey)}`));
        };
        const onSocketError = (err: Error) => failWith(err.message);
        socket.once("error", onSocketError);
        const silent = () =>
            fail(new SshUnreachableError(`SSH connection to ${where} failed: no answer within ${CONNECT_TIMEOUT_MS / 1000} s`));
        socket.setTimeout(CONNECT_TIMEOUT_MS, silent);
        socket.once("connect", () => {
            socket.removeListener("error", onSocketError); // ssh2 reports socket errors from here on
            socket.setKeepAlive(true, 15000);
            try {
                client.connect({
                    sock: socket,
                    username: target.user,
                    privateKey: ssh2PrivateKey(privateKey),
                    readyTimeout: CONNECT_TIMEOUT_MS,
                    hostVerifier: (keyBlob: Buffer) => {
                        presented = sshFingerprint(keyBlob);
                        refusal = hostKeyRefusal(target, presented);
                        return refusal === undefined;
                    },
                });
            } catch (err) {
                // e.g. a private key ssh2 cannot parse; its message never quotes the key
                failWith((err as Error).message);
            }
        });
        client.on("error", (err: Error & { level?: string }) => {
            if (settled) return onLost();
            if (err.level === "client-timeout") return silent();
            const hint = err.level === "client-authentication" ? " (is the public key in the user's authorized_keys?)" : "";
            failWith(err.message + hint);
        });
        client.on("close", () => {
            if (settled) onLost();
            else failWith("connection closed during the handshake");
        });
        client.once("ready", () => {
            if (settled) return;
            settled = true;
            socket.setTimeout(0);
            resolve({ client, socket, presented: presented as string });
        });
    });
}
