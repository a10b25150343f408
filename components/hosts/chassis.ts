// Chassis: one host's OVN settings (external_ids of the local Open_vSwitch row) and
// ovn-controller. Its first command starts Open vSwitch first: the tunnel NIC's move on the
// userspace datapath, else the controller's. Outputs the persistent system-id.
import * as pulumi from "@pulumi/pulumi";
import type { remote } from "@pulumi/command";
import type { HostModel } from "../model/types";
import { hostCommand, secretStdin, sslSecrets, type HostConnection, type OvsdbSsl } from "./command";
import { chassisNeedsK8sSecrets, chassisNeedsSsl, chassisScript, parseSystemId } from "./scripts/chassisScript";
import { ovsStart } from "./scripts/ovs";
import { nicMoveCommands, tunnelNic } from "./nicMove";
import { Part, type PartOptions } from "./part";

export interface ChassisArgs {
    host: HostModel;
    /** ovn-nb, e.g. tcp:10.0.0.1:6641 */
    nbAddress: string;
    /** ovn-remote, e.g. tcp:10.0.0.1:6642 */
    sbAddress: string;
    connection: HostConnection;
    /** Required when the API server is https:// (secret). */
    k8sApiToken?: pulumi.Input<string>;
    k8sCaCertificate?: pulumi.Input<string>;
    /** Required when sbAddress is ssl:…: ovn-controller's client key, certificate and CA (secrets). */
    ssl?: OvsdbSsl;
}

export class Chassis {
    readonly controller: remote.Command;
    /** Userspace datapath only: the tunnel NIC on its OVS bridge. */
    readonly tunnelBridge?: remote.Command;
    readonly tunnelBridgeConfirm?: remote.Command;
    /** external_ids:system-id: the chassis name in the SB, what gateway routers are pinned to. */
    readonly systemId: pulumi.Output<string>;

    constructor(name: string, args: ChassisArgs, opts: PartOptions) {
        const part = new Part("ovn-kubernetes:hosts:Chassis", name, opts);
        const addresses = { nbAddress: args.nbAddress, sbAddress: args.sbAddress };
        const k8s = chassisNeedsK8sSecrets(args.host);
        if (k8s && (args.k8sApiToken === undefined || args.k8sCaCertificate === undefined)) {
            throw new Error(`${name}: k8sApiToken and k8sCaCertificate are required for ${args.host.chassis?.k8sApiServer}`);
        }
        const ssl = chassisNeedsSsl(addresses);
        if (ssl && !args.ssl) throw new Error(`${name}: ssl (privateKey, certificate, caCertificate) is required for ${args.sbAddress}`);
        const stdin = secretStdin({
            ...(k8s ? { "k8s-api-token": args.k8sApiToken, "k8s-ca-certificate": args.k8sCaCertificate } : {}),
            ...(ssl ? sslSecrets(args.ssl) : {}),
        });
        const ovs = ovsStart(args.host);
        const nic = tunnelNic(args.host);
        // Generated (and so validated) before any command exists: bad input fails the preview.
        const script = chassisScript(args.host, addresses, nic ? undefined : ovs);
        if (nic) {
            // The tunnel address and routes follow the NIC onto the bridge, confirmed by a new
            // login before ovn-controller starts.
            const triggers = [nic.interface, nic.bridge, args.host.datapathType];
            const moved = nicMoveCommands(part, `${name}-tunnel-bridge`, nic, args.host.datapathType, args.connection, triggers, [], ovs);
            this.tunnelBridge = moved.move;
            this.tunnelBridgeConfirm = moved.confirm;
        }
        this.controller = hostCommand(
            part,
            `${name}-controller`,
            script,
            { connection: args.connection, stdin },
            this.tunnelBridgeConfirm ? { dependsOn: [this.tunnelBridgeConfirm] } : {},
        );
        this.systemId = this.controller.stdout.apply(parseSystemId);
    }
}
