// Errors of the SSH layer. Messages name user@host:port and, for host keys, fingerprints (public);
// they never contain the private key (see redactKey).

export class SshError extends Error {
    constructor(message: string) {
        super(message);
        // Set again: Pulumi's closure serializer turns `super(message)` of an Error subclass into
        // Error.call(this, message), which sets nothing on `this` in the serialized provider.
        this.message = message;
        this.name = "SshError";
    }
}

/** The server's host key is not the pinned one, or no key is pinned and insecureIgnoreHostKey is off. */
export class SshHostKeyError extends SshError {
    /** Fingerprint of the key the server presented, `SHA256:…`. */
    readonly presented: string;
    constructor(message: string, presented: string) {
        super(message);
        this.name = "SshHostKeyError";
        this.presented = presented;
    }
}

/**
 * Removes every line of the private key from a message. ssh2's own errors do not quote the key,
 * but a message built from an unexpected error must not leak it either.
 */
export function redactKey(message: string, privateKey: string): string {
    let out = message;
    for (const line of privateKey.split(/\r?\n/)) {
        const trimmed = line.trim();
        if (trimmed.length >= 16) out = out.split(trimmed).join("[redacted]");
    }
    return out;
}

/**
 * The host never answered within the connect timeout (packets dropped on the way): a second try
 * or a key probe would wait as long again, so callers fail at once naming the host.
 */
export class SshUnreachableError extends SshError {
    constructor(message: string) {
        super(message);
        this.name = "SshUnreachableError";
    }
}

/** The server refused or failed to open a channel (exec, forwarding); the connection itself is fine. */
export class SshChannelError extends SshError {
    constructor(message: string) {
        super(message);
        this.name = "SshChannelError";
    }
}
