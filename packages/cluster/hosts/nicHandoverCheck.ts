// NicHandoverCheck: refuses, at every preview and up, a NIC that moves onto an OVS bridge while
// the distribution's own network configuration (ifupdown, netplan, systemd-networkd, RHEL
// network-scripts, NetworkManager) would configure it at boot: the host would come back from a
// reboot answering on neither. The move's create refuses the same, but only when `up` reaches it;
// this check's `check` logs in and reads the host's configuration before any step, so the preview
// names the file and the fix (scripts/bash/boot-distro-config.sh) and nothing is touched.
import * as pulumi from "@pulumi/pulumi";
import { preflightProvider } from "../dynamic/preflight";
import { providerStub } from "../dynamic/stub";
import { PackageResource } from "../dynamic/resource";
import { sshKeyOf, sshKeyProps } from "../dynamic/providerConfig";
import { exec } from "../ssh/exec";
import { connectionTarget } from "../ssh/target";
import type { HostConnection } from "./command";
import { nicHandoverScript, type NicBridge } from "./scripts/nicMoveScript";

export interface NicHandoverCheckArgs {
    /** The host's SSH connection, as its commands have it. */
    connection: HostConnection;
    nic: NicBridge;
    /**
     * The stack config key (`<namespace>:<name>`) of the SSH private key, which the provider reads
     * from its configuration: the state then holds no key. Without it the key is taken from the
     * connection and kept as a secret input.
     */
    privateKeyConfig?: string;
}

/** What the distribution still configures of the NIC, as the script words it; undefined when nothing. */
async function refusal(inputs: any): Promise<string | undefined> {
    const r = await exec(inputs.ssh, sshKeyOf(inputs), nicHandoverScript(inputs.nic));
    if (r.code === 0) return undefined;
    return r.stderr.replace(/^error: /m, "").trim() || `the handover check of ${inputs.nic.interface} exited ${r.code}`;
}

export const nicHandoverProvider = preflightProvider({
    property: "nic",
    keys: ["ssh", "privateKey", "privateKeyConfig", "nic"],
    id: (inputs) => `${inputs.nic.node}/${inputs.nic.interface}`,
    refusal,
});

const provider = providerStub("ovn-kubernetes", "NicHandoverCheck", nicHandoverProvider);

export class NicHandoverCheck extends PackageResource {
    constructor(name: string, args: NicHandoverCheckArgs, opts?: pulumi.CustomResourceOptions) {
        const connection = pulumi.output(args.connection);
        const ssh = connection.apply(connectionTarget);
        const key = sshKeyProps(args.privateKeyConfig !== undefined ? { privateKeyConfig: args.privateKeyConfig } : { privateKey: connection.apply((c) => c.privateKey) });
        super(provider, name, { ssh, nic: args.nic, ...key.props }, { ...opts, additionalSecretOutputs: key.secretOutputs });
    }
}
