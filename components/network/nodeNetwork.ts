// NodeNetwork: one Kubernetes node's network, both halves of what minion-init did: the NB rows
// (switch <node>, rtos-/stor-<node>, management port k8s-<node>) and, on the host, the OVS
// internal interface of that management port with its address and route to the cluster.
import * as pulumi from "@pulumi/pulumi";
import { ManagementPort, type HostConnection } from "../hosts";
import { Part, type PartOptions } from "../hosts/part";
import type { NodeNetworkModel } from "../model/types";
import { NodeSwitch } from "../nb/resources/nodeSwitchResource";
import type { NbResourceArgs } from "../nb/resources/nbResource";

export interface NodeNetworkArgs extends Pick<NbResourceArgs, "nb" | "owner"> {
    network: NodeNetworkModel;
    /** SSH connection to the node itself (secret). */
    connection: HostConnection;
}

export class NodeNetwork {
    readonly switch: NodeSwitch;
    readonly managementPort: ManagementPort;
    readonly subnet: pulumi.Output<string>;

    constructor(name: string, args: NodeNetworkArgs, opts: PartOptions) {
        const part = new Part("ovn-kubernetes:network:NodeNetwork", name, opts);
        this.switch = new NodeSwitch(`${name}-switch`, { nb: args.nb, owner: args.owner, network: args.network }, part.child());
        // The host side needs no NB row to exist: ovn-controller binds the interface when both are there.
        this.managementPort = new ManagementPort(`${name}-mgmt`, { network: args.network, connection: args.connection }, part.inner());
        this.subnet = pulumi.output(args.network.subnet);
    }
}
