// What every host component shares: the SSH connection type and one way to turn a generated
// script into a remote.Command child.
import * as pulumi from "@pulumi/pulumi";
import { remote } from "@pulumi/command";
import type { HostScript } from "./scripts/shell";
import { encodeSecretLines, type SecretName } from "./scripts/secrets";

/** How @pulumi/command reaches a host. The whole object is made a Pulumi secret. */
export type HostConnection = pulumi.Input<{
    host: string;
    port: number;
    user: string;
    privateKey: pulumi.Input<string>;
}>;

export interface HostCommandArgs {
    connection: HostConnection;
    /** Secret lines for the script's stdin (see ./scripts/secrets.ts); already a secret Output. */
    stdin?: pulumi.Output<string>;
    /** Inputs whose change must replace the command (delete with the old script, create anew). */
    triggers?: unknown[];
}

/** A remote.Command child running `script` (create; update = create unless given; delete). */
export function hostCommand(
    parent: pulumi.Resource,
    name: string,
    script: HostScript,
    args: HostCommandArgs,
    opts: pulumi.CustomResourceOptions = {},
): remote.Command {
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
        { ...opts, parent },
    );
}

/** The secret lines for `secrets` as a secret Output, or undefined when none is given. */
export function secretStdin(secrets: Partial<Record<SecretName, pulumi.Input<string> | undefined>>): pulumi.Output<string> | undefined {
    const present = Object.entries(secrets).filter(([, v]) => v !== undefined) as Array<[SecretName, pulumi.Input<string>]>;
    if (present.length === 0) return undefined;
    return pulumi.secret(
        pulumi.all(present.map(([, v]) => v)).apply((values) =>
            encodeSecretLines(Object.fromEntries(present.map(([k], i) => [k, values[i]]))),
        ),
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
