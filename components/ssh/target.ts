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
