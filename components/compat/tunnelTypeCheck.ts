// TunnelTypeCheck: refuses, at preview, an encapType that differs from the tunnels the running
// cluster's chassis registered (./tunnelType.ts says why). `check` runs at every preview and up,
// before the central and the chassis that depend on it are touched; it reads the Southbound on
// the central over SSH. A new cluster has no Encap rows yet: nothing to refuse.
import * as pulumi from "@pulumi/pulumi";
import type { SshTarget } from "../model/sshTarget";
import { exec } from "../ssh/exec";
import { parseEncaps, READ_ENCAPS_SCRIPT, tunnelTypeRefusal } from "./tunnelType";
import { preflightProvider } from "../dynamic/preflight";
import { sshKeyOf, sshKeyProps, type SshKeyInput } from "../dynamic/providerConfig";
import { providerStub } from "../dynamic/stub";
import { PackageResource } from "../dynamic/resource";

export type TunnelTypeCheckArgs = {
    /** How to reach the central, where the Southbound runs. */
    ssh: SshTarget;
    encapType: string;
    /** Each node's tunnel IP (ovn-encap-ip), by node name. */
    tunnelIps: Record<string, string>;
} & SshKeyInput;

async function refusal(inputs: any): Promise<string | undefined> {
    const r = await exec(inputs.ssh, sshKeyOf(inputs), READ_ENCAPS_SCRIPT);
    return r.code === 0 ? tunnelTypeRefusal(inputs.encapType, inputs.tunnelIps, parseEncaps(r.stdout)) : undefined;
}

export const tunnelTypeCheckProvider = preflightProvider({
    property: "encapType",
    keys: ["ssh", "privateKeyConfig", "encapType", "tunnelIps"],
    id: () => "tunnel-type",
    refusal,
});

const provider = providerStub("ovn-kubernetes", "TunnelTypeCheck", tunnelTypeCheckProvider);

export class TunnelTypeCheck extends PackageResource {
    constructor(name: string, args: TunnelTypeCheckArgs, opts?: pulumi.CustomResourceOptions) {
        const { ssh, encapType, tunnelIps } = args;
        const key = sshKeyProps(args);
        super(provider, name, { ssh, encapType, tunnelIps, ...key.props }, { ...opts, additionalSecretOutputs: key.secretOutputs });
    }
}
