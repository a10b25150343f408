// How the program reaches hosts: @pulumi/command connections and the NB transport of the
// dynamic providers. Built inside `apply` so the private key never leaves its secret Output.
import type { HostModel, SshTarget } from "../model/types";

export interface CommandConnection {
    host: string;
    port: number;
    user: string;
    privateKey: string;
}

export interface NbConnection {
    ssh: SshTarget;
    privateKey: string;
    /** The NB database's unix socket on the central node (Debian and RHEL packages agree). */
    socket: string;
}

export const NB_SOCKET = "/var/run/ovn/ovnnb_db.sock";

export function sshConnection(host: HostModel, privateKey: string): CommandConnection {
    return { host: host.ssh.host, port: host.ssh.port, user: host.ssh.user, privateKey };
}

export function nbConnection(central: HostModel, privateKey: string): NbConnection {
    return { ssh: central.ssh, privateKey, socket: NB_SOCKET };
}
