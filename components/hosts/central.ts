// Central: the OVN databases (NB, SB), ovn-northd and their tcp or ssl listeners on one host.
import * as pulumi from "@pulumi/pulumi";
import type { remote } from "@pulumi/command";
import type { DatapathType, OsFamily } from "../config/types";
import type { CentralModel } from "../model/types";
import { hostCommand, secretStdin, sslSecrets, type HostConnection, type OvsdbSsl } from "./command";
import { CentralMembership } from "./centralMembership";
import { centralMemberScript, centralScript } from "./scripts/centralScript";
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
    /** With central.cluster: the members after the first (which `connection` reaches), each with its host's settings. */
    members?: { host: string; connection: HostConnection; datapathType?: DatapathType }[];
}

export class Central extends pulumi.ComponentResource {
    readonly ovs?: remote.Command;
    readonly databases: remote.Command;
    /** The members after the first (clustered databases only). */
    readonly members: remote.Command[];
    /** Where chassis and the NB providers connect, e.g. tcp:10.0.0.1:6641. */
    readonly nbListener: pulumi.Output<string>;
    readonly sbListener: pulumi.Output<string>;

    constructor(name: string, args: CentralArgs, opts?: pulumi.ComponentResourceOptions) {
        super("ovn-kubernetes:hosts:Central", name, {}, opts);
        const { central } = args;
        if (central.ssl && !args.ssl)
            throw new Error(`${name}: central.ssl is set, so ssl (privateKey, certificate, caCertificate) is required`);
        const stdin = central.ssl ? secretStdin(sslSecrets(args.ssl)) : undefined;
        const ovsOf = (resource: string, host: string, connection: HostConnection, datapathType?: DatapathType) =>
            datapathType === undefined
                ? undefined
                : hostCommand(this, resource, ovsStartScript({ name: host, os: args.os ?? "debian", datapathType }), { connection });
        // The first member keeps the single central's resource names: growing 1 -> N updates it in place.
        const script = central.cluster ? centralMemberScript(central, central.host) : centralScript(central, args.os ?? "debian");
        // Refuses unsupported member changes at preview, before any member's script runs.
        const membership = central.cluster
            ? new CentralMembership(`${name}-membership`, { cluster: central.cluster }, { parent: this })
            : undefined;
        this.ovs = ovsOf(`${name}-ovs`, central.host, args.connection, args.datapathType);
        const first = [...(this.ovs ? [this.ovs] : []), ...(membership ? [membership] : [])];
        this.databases = hostCommand(this, `${name}-databases`, script, { connection: args.connection, stdin }, { dependsOn: first });
        const others = central.cluster?.members.slice(1) ?? [];
        if (others.length !== (args.members ?? []).length || others.some((m, i) => args.members![i].host !== m.host))
            throw new Error(
                `${name}: members must be the central.cluster members after the first (${others.map((m) => m.host).join(", ")})`,
            );
        // Joining members follow the first: it creates the clusters, and on destroy they leave before it stops.
        this.members = (args.members ?? []).map((m) => {
            const ovs = ovsOf(`${name}-${m.host}-ovs`, m.host, m.connection, m.datapathType);
            return hostCommand(
                this,
                `${name}-${m.host}-databases`,
                centralMemberScript(central, m.host),
                { connection: m.connection, stdin },
                { dependsOn: [this.databases, ...(ovs ? [ovs] : [])] },
            );
        });
        this.nbListener = pulumi.output(central.nbListener);
        this.sbListener = pulumi.output(central.sbListener);
        this.registerOutputs({ ovs: this.ovs, databases: this.databases, nbListener: this.nbListener, sbListener: this.sbListener });
    }
}
