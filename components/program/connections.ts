// How the program reaches hosts: @pulumi/command connections and the NB transport of the
// dynamic providers. Built inside `apply` so the private key never leaves its secret Output.
// Both verify the host's pinned key before logging in: the command provider with
// `connection.hostKey`, the NB transport with the pin in its SshTarget.
import type { HostModel } from "../model/types";
import type { SshTarget } from "../ssh/target";
import { commandHostKey } from "../ssh/hostKey";
import { NB_SOCKET } from "../ssh/ovsdbChannel";

export interface CommandConnection {
    host: string;
    port: number;
    user: string;
    privateKey: string;
    /** The pinned key line; absent only with ssh.insecureIgnoreHostKey (the provider then accepts any key). */
    hostKey?: string;
}

export interface NbConnection {
    ssh: SshTarget;
    privateKey: string;
    /** The NB database's unix socket on the central node (Debian and RHEL packages agree). */
    socket: string;
    /** Clustered NB: every central, as ssh and socket (the NB resources' `nb.members`). */
    members?: { ssh: SshTarget; socket: string }[];
}

export function sshConnection(host: HostModel, privateKey: string): CommandConnection {
    const { ssh } = host;
    const connection: CommandConnection = { host: ssh.host, port: ssh.port, user: ssh.user, privateKey };
    if (ssh.hostKey) connection.hostKey = commandHostKey(ssh.hostKey, ssh.host);
    return connection;
}

/** NB on the (first) central; with several centrals, `members` lists them all and calls follow the raft leader. */
export function nbConnection(central: HostModel, privateKey: string, centrals: readonly HostModel[] = [central]): NbConnection {
    const nb: NbConnection = { ssh: central.ssh, privateKey, socket: NB_SOCKET };
    if (centrals.length > 1) nb.members = centrals.map((c) => ({ ssh: c.ssh, socket: NB_SOCKET }));
    return nb;
}
