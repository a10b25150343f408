// What every host component shares: the SSH connection type and one way to turn a generated
// script into a remote.Command child.
//
// How @pulumi/command 1.2.1 carries a command out (pulumi-command v1.2.1, commandController.go and
// common/inputs.go): only `triggers` is replace-on-change. Any other change, including the
// connection (a rotated key, another user or port, a new host key), is an update that runs
// `update`, or `create` when there is none, over the NEW connection; delete runs the `delete`
// recorded in state over the connection recorded in state. Every script here is an idempotent
// create without an `update`, so a connection change re-runs create and tears nothing down.
//
// A replace (a trigger changed) runs a new create and an old delete on the same host. Created
// first, the old delete would undo what the new create just set up, since both act on the same
// host objects; so every command with a delete is replaced delete-first, one rule for all:
// - OVS start (Central; a chassis starts it in its first command): no delete, nothing to undo, so
//   the order does not matter; the new create simply runs.
// - central databases: delete closes the NB/SB listeners; created first, the new listeners would be
//   closed by the old delete. Delete-first: chassis and ovnkube reconnect after a short gap.
// - chassis (ovn-controller): delete stops ovn-controller and removes the OVN keys, the ones the new
//   create sets. Delete-first: the chassis leaves the SB and rejoins under the same system-id.
// - tunnel bridge and gateway bridge: delete moves the NIC's addresses back and deletes the bridge;
//   a NIC cannot sit in two bridges nor its addresses in two places, so the old setup must be gone
//   before the new one takes the NIC. The gap is the reconfiguration itself.
// - management port: delete removes the interface whose address the new one takes over.
// - gateway flows: delete puts the bridge back to NORMAL, which would wipe the new flows; delete
//   first leaves NORMAL forwarding for the moment in between, which still carries the host's traffic.
import * as pulumi from "@pulumi/pulumi";
import { remote } from "@pulumi/command";
import type { HostScript } from "./scripts/shell";
import { encodeSecretLines, type SecretName } from "./scripts/secrets";
import { Part, type ChildOptions } from "./part";

/** How @pulumi/command reaches a host. The whole object is made a Pulumi secret. */
export type HostConnection = pulumi.Input<{
    host: string;
    port: number;
    user: string;
    privateKey: pulumi.Input<string>;
    /** The host's key line ("ssh-ed25519 AAAA…"): the provider refuses any other key before logging in. */
    hostKey?: string;
}>;

/** A HostScript whose text may wait for other resources (a token another command printed). */
export type HostScriptInput = { [K in keyof HostScript]: pulumi.Input<string> | undefined };

export interface HostCommandArgs {
    connection: HostConnection;
    /** Secret lines for the script's stdin (see ./scripts/secrets.ts); already a secret Output. */
    stdin?: pulumi.Output<string>;
    /** Inputs whose change must replace the command (delete with the old script, create anew). */
    triggers?: unknown[];
}

/**
 * A remote.Command running `script` (create; update = create again; delete), a child of `parent`
 * or one of a part's resources. A command with a delete is always replaced delete-first (see
 * above); asking otherwise is refused.
 */
export function hostCommand(
    parent: pulumi.Resource | Part,
    name: string,
    script: HostScript | HostScriptInput,
    args: HostCommandArgs,
    opts: ChildOptions = {},
): remote.Command {
    const undoes = script.delete !== undefined;
    if (undoes && opts.deleteBeforeReplace === false)
        throw new Error(
            `${name}: a host command with a delete script is replaced delete-first, or its old delete would undo the new create on the same host`,
        );
    const own = { ...opts, deleteBeforeReplace: undoes || opts.deleteBeforeReplace };
    return new remote.Command(
        name,
        {
            connection: pulumi.secret(args.connection),
            create: script.create,
            update: script.update,
            delete: script.delete,
            stdin: args.stdin,
            triggers: args.triggers,
        },
        parent instanceof Part ? parent.child(own) : { ...own, parent },
    );
}

/** The secret lines for `secrets` as a secret Output, or undefined when none is given. */
export function secretStdin(secrets: Partial<Record<SecretName, pulumi.Input<string> | undefined>>): pulumi.Output<string> | undefined {
    const present = Object.entries(secrets).filter(([, v]) => v !== undefined) as Array<[SecretName, pulumi.Input<string>]>;
    if (present.length === 0) return undefined;
    return pulumi.secret(
        pulumi
            .all(present.map(([, v]) => v))
            .apply((values) => encodeSecretLines(Object.fromEntries(present.map(([k], i) => [k, values[i]])))),
    );
}

/** SSL material for OVSDB connections: private key, certificate and CA certificate (PEM). */
export interface OvsdbSsl {
    privateKey: pulumi.Input<string>;
    certificate: pulumi.Input<string>;
    caCertificate: pulumi.Input<string>;
}

export function sslSecrets(ssl: OvsdbSsl | undefined): Partial<Record<SecretName, pulumi.Input<string>>> {
    return ssl ? { "ssl-private-key": ssl.privateKey, "ssl-certificate": ssl.certificate, "ssl-ca-certificate": ssl.caCertificate } : {};
}
