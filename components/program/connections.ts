// How the program reaches hosts: @pulumi/command connections (built inside `apply`, so the private
// key never leaves its secret Output) and the NB transport of the dynamic providers (which names
// the stack config key of the SSH key rather than carrying it). Both verify the host's pinned key
// before logging in: the command provider with `connection.hostKey`, the NB transport with the
// pin in its SshTarget.
import type { HostModel } from "../model/types";
import type { SshTarget } from "../model/sshTarget";
import { commandPrivateKey } from "../ssh/commandKey";
import { commandHostKey } from "../ssh/hostKey";
import { NB_SOCKET } from "../ssh/ovsdbChannel";
import type { NbConnection, NbKey } from "../nb/kinds/common";

export interface CommandConnection {
    host: string;
    port: number;
    user: string;
    privateKey: string;
    /** The pinned key line; absent only with ssh.insecureIgnoreHostKey (the provider then accepts any key). */
    hostKey?: string;
}

export function sshConnection(host: HostModel, privateKey: string): CommandConnection {
    const { ssh } = host;
    const connection: CommandConnection = { host: ssh.host, port: ssh.port, user: ssh.user, privateKey: commandPrivateKey(privateKey) };
    if (ssh.hostKey) connection.hostKey = commandHostKey(ssh.hostKey, ssh.host);
    return connection;
}

/** NB on the (first) central; with several centrals, `members` lists them all and calls follow the raft leader. */
export function nbConnection(central: HostModel, key: NbKey, centrals: readonly HostModel[] = [central]): NbConnection {
    const nb: NbConnection = { ssh: central.ssh, ...key, socket: NB_SOCKET };
    if (centrals.length > 1) nb.members = centrals.map((c) => ({ ssh: c.ssh, socket: NB_SOCKET }));
    return nb;
}
