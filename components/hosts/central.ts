// Central: the OVN databases (NB, SB), ovn-northd and their tcp or ssl listeners on one host.
import * as pulumi from "@pulumi/pulumi";
import type { remote } from "@pulumi/command";
import type { DatapathType, OsFamily } from "../config/types";
import type { CentralModel } from "../model/types";
import { hostCommand, secretStdin, sslSecrets, type HostConnection, type OvsdbSsl } from "./command";
import { centralScript } from "./scripts/central";
import { ovsStartScript } from "./scripts/ovs";

export interface CentralArgs {
    central: CentralModel;
    connection: HostConnection;
    /** Required when central.ssl: the databases' private key, certificate and CA (secrets). */
    ssl?: OvsdbSsl;
    /** Package family of the central host (systemd unit names); default debian. */
    os?: OsFamily;
    /** When given, Open vSwitch is started on the central host first (every host runs it). */
    datapathType?: DatapathType;
}

export class Central extends pulumi.ComponentResource {
    readonly ovs?: remote.Command;
    readonly databases: remote.Command;
    /** Where chassis and the NB providers connect, e.g. tcp:10.0.0.1:6641. */
    readonly nbListener: pulumi.Output<string>;
    readonly sbListener: pulumi.Output<string>;

    constructor(name: string, args: CentralArgs, opts?: pulumi.ComponentResourceOptions) {
        super("ovn-kubernetes:hosts:Central", name, {}, opts);
        const { central } = args;
        if (central.ssl && !args.ssl) throw new Error(`${name}: central.ssl is set, so ssl (privateKey, certificate, caCertificate) is required`);
        const script = centralScript(central, args.os ?? "debian");
        if (args.datapathType !== undefined) {
            const ovsHost = { name: central.host, os: args.os ?? "debian", datapathType: args.datapathType };
            this.ovs = hostCommand(this, `${name}-ovs`, ovsStartScript(ovsHost), { connection: args.connection });
        }
        this.databases = hostCommand(
            this,
            `${name}-databases`,
            script,
            { connection: args.connection, stdin: central.ssl ? secretStdin(sslSecrets(args.ssl)) : undefined },
            { dependsOn: this.ovs ? [this.ovs] : [] },
        );
        this.nbListener = pulumi.output(central.nbListener);
        this.sbListener = pulumi.output(central.sbListener);
        this.registerOutputs({ ovs: this.ovs, databases: this.databases, nbListener: this.nbListener, sbListener: this.sbListener });
    }
}
