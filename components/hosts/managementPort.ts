// ManagementPort: the host side of a node's management port k8s-<node> on br-int (MAC, MTU,
// address, route to the cluster subnet), so the node reaches its pods and the cluster.
import * as pulumi from "@pulumi/pulumi";
import type { remote } from "@pulumi/command";
import type { NodeNetworkModel } from "../model/types";
import { hostCommand, type HostConnection } from "./command";
import { Part, type PartOptions } from "./part";
import { managementPortScript } from "./scripts/managementPortScript";

export interface ManagementPortArgs {
    network: NodeNetworkModel;
    connection: HostConnection;
}

export class ManagementPort {
    readonly port: remote.Command;
    readonly interfaceName: pulumi.Output<string>;

    constructor(name: string, args: ManagementPortArgs, opts: PartOptions) {
        const part = new Part("ovn-kubernetes:hosts:ManagementPort", name, opts);
        const { network } = args;
        this.port = hostCommand(
            part,
            `${name}-mgmt-port`,
            managementPortScript(network),
            // A renamed interface is a different port: remove the old one before creating the new,
            // which takes over the same address. Other changes converge through update.
            { connection: args.connection, triggers: [network.mgmtInterface] },
        );
        this.interfaceName = pulumi.output(network.mgmtInterface);
    }
}
