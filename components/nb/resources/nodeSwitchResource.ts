// NodeSwitch: the NB rows of one node network (switch <node>, rtos-/stor-<node>, k8s-<node>,
// cluster LBs on the switch) as one Pulumi resource. Named NodeSwitch, not NodeNetwork: the
// program's NodeNetwork component also does the host side of the management port and uses this.
import * as pulumi from "@pulumi/pulumi";
import type { NodeNetworkModel } from "../../model/types";
import { nodeSwitchKind, type NodeSwitchNb } from "../kinds/nodeSwitch";
import { NB_KINDS } from "../kinds";
import { nbProvider } from "./nbProvider";
import { NbResource, type NbResourceArgs } from "./nbResource";

export interface NodeSwitchArgs extends NbResourceArgs {
    /** The model's node network (host-side fields such as mtu and mgmtInterface are dropped). */
    network: pulumi.Input<NodeNetworkModel | NodeSwitchNb>;
}

// The kind's provider, registered once, at module load.
const provider = nbProvider(NB_KINDS.NodeSwitch);

export class NodeSwitch extends NbResource {
    declare readonly network: pulumi.Output<NodeSwitchNb>;

    constructor(name: string, args: NodeSwitchArgs, opts?: pulumi.CustomResourceOptions) {
        super(
            provider,
            name,
            args,
            { network: pulumi.output(args.network).apply((network) => nodeSwitchKind.normalize({ network }).network as NodeSwitchNb) },
            opts,
        );
    }
}
