// Host key pinning. A pin is either the server's public key as an OpenSSH line
// ("ssh-ed25519 AAAA… comment", as `ssh-keyscan` prints it after the host name, or
// /etc/ssh/ssh_host_ed25519_key.pub) or its fingerprint as `ssh-keygen -l` prints it
// ("SHA256:<base64 without padding>"). The transports here accept both; @pulumi/command's
// `connection.hostKey` takes only the key line (pulumi-command v1.2.1 parses it with Go's
// ssh.ParseAuthorizedKey and pins it with ssh.FixedHostKey), so stacks pin key lines.
import { createHash } from "crypto";

/** OpenSSH's SHA256 fingerprint of a public key blob (the SSH wire encoding of the key). */
export function sshFingerprint(keyBlob: Uint8Array): string {
    return "SHA256:" + createHash("sha256").update(keyBlob).digest("base64").replace(/=+$/, "");
}

const FINGERPRINT = /^SHA256:[A-Za-z0-9+/]{43}=?$/;
const KEY_TYPE = /^(ssh|ecdsa|sk)-[A-Za-z0-9@.-]+$/;
const BASE64 = /^[A-Za-z0-9+/]+=*$/;

export function isFingerprintPin(pin: string): boolean {
    return FINGERPRINT.test(pin.trim());
}

/** How to get a pin @pulumi/command can use: the one hint every refusal of a fingerprint gives. */
export function keyLineHint(host: string): string {
    return `run \`ssh-keyscan -t ed25519 ${host}\` and pin the key it prints after the host name ("ssh-ed25519 AAAA…")`;
}

export interface HostKeyLine {
    /** e.g. ssh-ed25519 */
    type: string;
    /** The key blob (SSH wire encoding), which starts with the type as an SSH string. */
    blob: Buffer;
}

/**
 * Parses an OpenSSH public key line as ssh.ParseAuthorizedKey would accept it: type, base64 blob
 * whose own type field agrees, optional comment. Throws naming what is wrong.
 */
export function parseHostKeyLine(pin: string): HostKeyLine {
    const [type, data] = pin.trim().split(/\s+/);
    if (!type || !KEY_TYPE.test(type) || !data || !BASE64.test(data))
        throw new Error('hostKey must be an OpenSSH public key line ("ssh-ed25519 AAAA…")');
    const blob = Buffer.from(data, "base64");
    const length = blob.length >= 4 ? blob.readUInt32BE(0) : -1;
    const inner = length >= 0 && 4 + length <= blob.length ? blob.subarray(4, 4 + length).toString("latin1") : undefined;
    if (inner !== type)
        throw new Error(
            `hostKey "${type} ${data.slice(0, 16)}…" is damaged: its data does not hold a ${type} key; copy the line again from ssh-keyscan`,
        );
    return { type, blob };
}

/**
 * The key line for @pulumi/command's `connection.hostKey`: type and data only, so a comment
 * edited in the stack is not a connection change (which would re-run every script of the host).
 * Throws for a fingerprint pin: the provider needs the key itself.
 */
export function commandHostKey(pin: string, host: string): string {
    if (isFingerprintPin(pin))
        throw new Error(`hostKey of ${host} is a fingerprint, which @pulumi/command cannot verify: ${keyLineHint(host)}`);
    const { type, blob } = parseHostKeyLine(pin);
    return `${type} ${blob.toString("base64")}`;
}

/** A pin as a fingerprint or a parsed key line; throws on a pin that is neither form. */
function parsePin(pin: string): { fingerprint: string } | { line: HostKeyLine } {
    const text = pin.trim();
    if (FINGERPRINT.test(text)) return { fingerprint: text.replace(/=$/, "") };
    try {
        return { line: parseHostKeyLine(text) };
    } catch {
        throw new Error(
            'hostKey must be an OpenSSH public key line ("ssh-ed25519 AAAA…") or a fingerprint ("SHA256:" and 43 base64 characters)',
        );
    }
}

/** Throws, as pinFingerprint does, on a pin that is neither form; validation needs no digest. */
export function checkPin(pin: string): void {
    parsePin(pin);
}

/** The fingerprint a pin stands for; throws on a pin that is neither form. */
export function pinFingerprint(pin: string): string {
    const p = parsePin(pin);
    return "fingerprint" in p ? p.fingerprint : sshFingerprint(p.line.blob);
}

/** ssh2's names of the signature algorithms a host key of this type signs with. */
export function hostKeyAlgorithms(type: string): string[] {
    // An RSA key signs with SHA-2 (RFC 8332) on current servers; "ssh-rsa" is the SHA-1 fallback.
    return type === "ssh-rsa" ? ["rsa-sha2-512", "rsa-sha2-256", "ssh-rsa"] : [type];
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
