// Host key pinning. A pin is either the server's public key as an OpenSSH line
// ("ssh-ed25519 AAAA… comment", as in known_hosts or /etc/ssh/ssh_host_ed25519_key.pub) or its
// fingerprint as `ssh-keygen -l` prints it ("SHA256:<base64 without padding>").
import { createHash } from "crypto";

/** OpenSSH's SHA256 fingerprint of a public key blob (the SSH wire encoding of the key). */
export function sshFingerprint(keyBlob: Uint8Array): string {
    return "SHA256:" + createHash("sha256").update(keyBlob).digest("base64").replace(/=+$/, "");
}

/** The fingerprint a pin stands for; throws on a pin that is neither form. */
export function pinFingerprint(pin: string): string {
    const text = pin.trim();
    if (/^SHA256:[A-Za-z0-9+/]{43}$/.test(text)) return text;
    const fields = text.split(/\s+/);
    if (fields.length >= 2 && /^(ssh|ecdsa|sk)-[A-Za-z0-9@.-]+$/.test(fields[0]) && /^[A-Za-z0-9+/]+=*$/.test(fields[1])) {
        return sshFingerprint(Buffer.from(fields[1], "base64"));
    }
    throw new Error(
        'hostKey must be an OpenSSH public key line ("ssh-ed25519 AAAA…") or a fingerprint ("SHA256:" and 43 base64 characters)',
    );
}

/**
 * Decides whether a presented host key is acceptable for a target. Returns undefined when it is,
 * else the reason (naming host:port and the presented fingerprint, so an operator can pin it).
 */
export function hostKeyRefusal(
    target: { host: string; port: number; hostKey?: string; insecureIgnoreHostKey: boolean },
    presented: string,
): string | undefined {
    const where = `${target.host}:${target.port}`;
    if (target.hostKey === undefined || target.hostKey.trim() === "") {
        if (target.insecureIgnoreHostKey) return undefined;
        return `no host key pinned for ${where}; it presented ${presented}. Pin it as hostKey, or set insecureIgnoreHostKey`;
    }
    let expected: string;
    try {
        expected = pinFingerprint(target.hostKey);
    } catch (err) {
        return `pinned host key for ${where} is unusable: ${(err as Error).message}`;
    }
    if (expected === presented) return undefined;
    return `host key mismatch for ${where}: it presented ${presented}, but ${expected} is pinned. Refusing to connect`;
}
