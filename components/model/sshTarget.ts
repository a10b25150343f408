// Where an SSH connection goes and how the server is recognised.

/** How to reach a host over SSH (no secret in here: the private key travels as a Pulumi secret). */
export interface SshTarget {
    host: string;
    port: number;
    user: string;
    /** Pinned host key line (`ssh-ed25519 AAAA…`); undefined only with insecureIgnoreHostKey. */
    hostKey?: string;
    insecureIgnoreHostKey: boolean;
}

/**
 * The target a host command's connection stands for (program/connections builds one from a host's
 * target), for this package's own SSH checks of that host: its pinned key, or none where the
 * stack waived checks.
 */
export function connectionTarget(c: { host: string; port: number; user: string; hostKey?: string }): SshTarget {
    return {
        host: c.host,
        port: c.port,
        user: c.user,
        ...(c.hostKey ? { hostKey: c.hostKey } : {}),
        insecureIgnoreHostKey: c.hostKey === undefined,
    };
}
