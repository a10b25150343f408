// The MTU leaves room for the tunnel: pod MTU + the encapsulation's overhead (Geneve 58, VXLAN 50
// bytes; components/compat/tunnelMtu) must fit the underlay MTU, or large packets between nodes
// are dropped while small ones pass. The program's preview check reads each host's real device;
// this rule holds the stack to the MTU the organisation's underlay guarantees, before any host
// is reached. Judged on each chassis host's script bundle, which carries its tunnel's plan, so a
// violation names the node.
import type { PolicyConfigSchema, ResourceValidationPolicy } from "@pulumi/policy";
import { tunnelOverhead } from "@ovn-kubernetes-as-code/cluster/compat";
import { SCRIPT_BUNDLE_TYPE } from "@ovn-kubernetes-as-code/cluster/hosts";
import { settingsOf } from "./scope";

const settings: PolicyConfigSchema = {
    properties: {
        underlayMtu: {
            type: "integer",
            minimum: 576,
            default: 1500,
            description: "the MTU every node's tunnel device is guaranteed to have",
        },
    },
};

export const mtuFitsTunnel: ResourceValidationPolicy = {
    name: "mtu-fits-tunnel",
    description: "The pod MTU plus the tunnel's overhead (Geneve 58, VXLAN 50 bytes) fits the underlay MTU.",
    enforcementLevel: "mandatory",
    configSchema: settings,
    validateResource(args, reportViolation) {
        if (args.type !== SCRIPT_BUNDLE_TYPE || args.props.tunnel === undefined) return;
        const { underlayMtu } = settingsOf<{ underlayMtu: number }>(settings, args.getConfig());
        const { node, mtu, encapType } = args.props.tunnel;
        const overhead = tunnelOverhead(encapType);
        if (overhead !== undefined && mtu + overhead > underlayMtu)
            reportViolation(
                `node ${node}: mtu ${mtu} + ${overhead} bytes of ${encapType} = ${mtu + overhead} exceeds the underlay MTU ${underlayMtu}; set mtu to at most ${underlayMtu - overhead}`,
            );
    },
};
