// TunnelMtuCheck: refuses, at every preview and up, an overlay MTU whose tunnel packets would not
// fit the device carrying a node's tunnel address (./tunnelMtu.ts says why). One per chassis host;
// every command on the host waits for it, so a too-large MTU touches no management port.
import * as pulumi from "@pulumi/pulumi";
import type { SshTarget } from "../ssh/target";
import { exec } from "../ssh/exec";
import { parseTunnelDevice, readTunnelDeviceScript, tunnelMtuRefusal, type TunnelMtuPlan } from "./tunnelMtu";
import { preflightProvider } from "../dynamic/preflight";
import { sshKeyOf, sshKeyProps, type SshKeyInput } from "../dynamic/providerConfig";
import { providerStub } from "../dynamic/stub";
import { PackageResource } from "../dynamic/resource";

export type TunnelMtuCheckArgs = TunnelMtuPlan & { ssh: SshTarget } & SshKeyInput;

async function refusal(inputs: any): Promise<string | undefined> {
    const r = await exec(inputs.ssh, sshKeyOf(inputs), readTunnelDeviceScript(inputs.tunnelIp));
    return r.code === 0 ? tunnelMtuRefusal(inputs, parseTunnelDevice(r.stdout)) : undefined;
}

export const tunnelMtuCheckProvider = preflightProvider({ property: "mtu", keys: ["ssh", "node", "mtu", "encapType", "tunnelIp"], id: (inputs) => inputs.node, refusal });

const provider = providerStub("ovn-kubernetes", "TunnelMtuCheck", tunnelMtuCheckProvider);
export const TUNNEL_MTU_CHECK_TYPE = provider.resourceType;

export class TunnelMtuCheck extends PackageResource {
    constructor(name: string, args: TunnelMtuCheckArgs, opts?: pulumi.CustomResourceOptions) {
        const { ssh, node, mtu, encapType, tunnelIp } = args;
        const key = sshKeyProps(args);
        super(provider, name, { ssh, node, mtu, encapType, tunnelIp, ...key.props }, { ...opts, additionalSecretOutputs: key.secretOutputs });
    }
}
