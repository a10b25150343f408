// What the three NB resource classes share: the connection input (it names the stack config key
// the provider reads the SSH key from; a key passed in it instead makes the whole connection a
// secret, so that it never appears in plain text in inputs, outputs, diffs or logs), the outputs
// every kind adds, and the options every kind needs.
import * as pulumi from "@pulumi/pulumi";
import { PackageResource } from "../../dynamic/resource";
import type { PackageProvider } from "../../dynamic/stub";
import type { SshTarget } from "../../model/sshTarget";
import { NB_SOCKET } from "../../ssh/ovsdbChannel";
import { NB_SCHEMA_VERSION, type NbConnection, type NbMember } from "../kinds/common";
import type { RowRecord } from "../core/record";
import type { RowState } from "../core/rows";

export interface NbConnectionArgs {
    ssh: pulumi.Input<SshTarget>;
    /** The stack config key holding the SSH private key for ssh.user, e.g. `ovn-kubernetes:sshPrivateKey` (NbConnection.privateKeyConfig). */
    privateKeyConfig?: string;
    /** Or the OpenSSH private key itself; the connection is then kept a secret whatever is passed. */
    privateKey?: pulumi.Input<string>;
    /** NB unix socket on the host (default /var/run/ovn/ovnnb_db.sock) or tcp:<ip>:<port>. */
    socket?: pulumi.Input<string>;
    /** Clustered NB: every member (see NbConnection.members). */
    members?: NbMember[];
}

export interface NbResourceArgs {
    /** How to reach NB; may be one (secret) Output, as the program builds it inside an apply. */
    nb: pulumi.Input<NbConnectionArgs>;
    /** `<project>/<stack>`: the pulumi-owner tag on every row. */
    owner: pulumi.Input<string>;
    /** Input/output schema version (default: the version this code writes). */
    version?: string;
}

/** The module of the type tokens: `pulumi-nodejs:dynamic/ovn-nb:<Type>`. */
export const NB_MODULE = "ovn-nb";

/** The connection as resources record it; a secret when (and only when) it carries the key. */
export function nbConnectionInput(nb: pulumi.Input<NbConnectionArgs>): pulumi.Output<NbConnection> {
    return pulumi.output(nb).apply((n): pulumi.Output<NbConnection> => {
        const ssh: SshTarget = {
            host: n.ssh.host,
            port: n.ssh.port,
            user: n.ssh.user,
            insecureIgnoreHostKey: n.ssh.insecureIgnoreHostKey ?? false,
        };
        if (n.ssh.hostKey !== undefined) ssh.hostKey = n.ssh.hostKey;
        const connection: NbConnection = { ssh, socket: n.socket ?? NB_SOCKET };
        if (n.privateKeyConfig !== undefined) connection.privateKeyConfig = n.privateKeyConfig;
        if (n.privateKey !== undefined) connection.privateKey = n.privateKey;
        // Only when clustered: a single-central connection stays exactly as it was.
        if (n.members !== undefined) connection.members = n.members;
        // The engine marks an output secret when its input was (a provider without secret support).
        const out = pulumi.output(connection) as pulumi.Output<NbConnection>;
        return connection.privateKey === undefined ? out : pulumi.secret(out);
    });
}

/**
 * Replacement always deletes first: the new resource would find the old rows by the same tags
 * (or collide with their unique port names).
 */
export function nbResourceOptions(opts: pulumi.CustomResourceOptions | undefined): pulumi.CustomResourceOptions {
    return { deleteBeforeReplace: true, ...opts };
}

/**
 * The outputs every NB resource has, and its registration: the connection made a secret, the
 * common inputs, the kind's own inputs, and `group`/`rows` left for the provider to fill.
 * Outputs are `declare`d so that no class field initializer ever resets what the SDK assigned.
 */
export abstract class NbResource extends PackageResource {
    declare readonly nb: pulumi.Output<NbConnection>;
    declare readonly owner: pulumi.Output<string>;
    declare readonly version: pulumi.Output<string>;
    /** The pulumi-group tag of its rows, e.g. `node/kube-minion1`. */
    declare readonly group: pulumi.Output<string>;
    /** By OVN name, each row's UUID and the managed columns that differ from the declaration (after refresh: as found in NB); see ../core/record. */
    declare readonly rows: pulumi.Output<Record<string, RowRecord | RowState>>;

    protected constructor(
        provider: PackageProvider,
        name: string,
        args: NbResourceArgs,
        own: Record<string, pulumi.Input<unknown>>,
        opts: pulumi.CustomResourceOptions | undefined,
    ) {
        const props = {
            nb: nbConnectionInput(args.nb),
            owner: args.owner,
            version: args.version ?? NB_SCHEMA_VERSION,
            ...own,
            group: undefined,
            rows: undefined,
        };
        super(provider, name, props, nbResourceOptions(opts));
    }
}
