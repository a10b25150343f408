// The host-key gate in front of every host. Every remote.Command verifies the pinned key itself
// when it connects (`connection.hostKey`), but commands connect only while `up` carries them out,
// one host after another: a wrong key would surface halfway through an up, after other hosts were
// changed, and never in a preview. So each host's script bundle (../hosts/scriptBundle), which
// every command of the host depends on, checks the presented key against the pin at every preview
// and up (its `check` runs each time) and refuses on a mismatch before any command reaches the
// host. With the key's config entry named, it logs in through the process's connection pool
// (./pool), which checks the key before authenticating: the host's other checks then run on that
// same connection instead of a handshake of their own. Without it, or when the login fails for
// another reason than the key, a probe stops after the key exchange: no credentials are needed to
// see the key.
import * as pulumi from "@pulumi/pulumi";
import { retireProvider } from "../dynamic/registry";
import { sshKeyOf } from "../dynamic/providerConfig";
import type { SshTarget } from "../model/sshTarget";
import { SshHostKeyError, SshUnreachableError } from "./errors";
import { acquireSsh } from "./pool";
import { hostKeyAlgorithms, hostKeyRefusal, isFingerprintPin, parseHostKeyLine, sshFingerprint } from "./hostKey";

/**
 * Connects just far enough to see the host key and returns its SHA256 fingerprint. With a key line
 * pinned, only that key type is offered, as the command provider does: a host holding several keys
 * then presents the pinned one.
 */
export function probeHostKey(target: SshTarget, timeoutMs = 15000): Promise<string> {
    const { Client } = require("ssh2") as typeof import("ssh2");
    const pin = target.hostKey && !isFingerprintPin(target.hostKey) ? target.hostKey : undefined;
    const serverHostKey = pin ? hostKeyAlgorithms(parseHostKeyLine(pin).type) : undefined;
    return new Promise((resolve, reject) => {
        const client = new Client();
        let seen: string | undefined;
        const done = () => {
            client.end();
            if (seen !== undefined) resolve(seen);
            else reject(new Error(`no SSH host key received from ${target.host}:${target.port}`));
        };
        client.on("error", (e: Error) =>
            seen !== undefined ? done() : reject(new Error(`SSH to ${target.host}:${target.port}: ${e.message}`)),
        );
        client.on("close", done);
        client.connect({
            host: target.host,
            port: target.port,
            username: target.user,
            readyTimeout: timeoutMs,
            ...(serverHostKey ? { algorithms: { serverHostKey: serverHostKey as never } } : {}),
            // Refusing here ends the handshake right after the key exchange.
            hostVerifier: (key: Buffer) => {
                seen = sshFingerprint(key);
                return false;
            },
        });
    });
}

/** The fingerprint the host presents: the pooled login's when the key is named and it logs in, else a probe's. */
export async function presentedKey(inputs: any): Promise<string> {
    if (inputs.privateKeyConfig !== undefined) {
        try {
            const held = await acquireSsh(inputs.ssh, sshKeyOf(inputs));
            held.release();
            return held.presented;
        } catch (e) {
            if (e instanceof SshHostKeyError) return e.presented;
            // A host that did not answer would not answer a probe either: one wait, not two.
            if (e instanceof SshUnreachableError) throw e;
            // Not the key (a login refused, a key not configured): the probe tells the key apart.
        }
    }
    return probeHostKey(inputs.ssh);
}

/**
 * The gate a host's script bundle (../hosts/scriptBundle) puts in front of every command, at every
 * preview and up (`check` runs each time): the presented key against the pin. A failure names `ssh`.
 */
export async function checkHostKey(inputs: { ssh: SshTarget; privateKeyConfig?: string }): Promise<pulumi.dynamic.CheckFailure[]> {
    try {
        const refusal = hostKeyRefusal(inputs.ssh, await presentedKey(inputs));
        return refusal ? [{ property: "ssh", reason: refusal }] : [];
    } catch (e) {
        return [{ property: "ssh", reason: (e as Error).message }];
    }
}

retireProvider("ssh:HostKeyCheck", "each host's script bundle checks its key");
