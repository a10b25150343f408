// Every SSH connection verifies its host's pinned key: `ssh.insecureIgnoreHostKey` (accept any key)
// lets anyone on the path pose as a host and receive its scripts and secrets. Each host's script
// bundle, which checks its key, carries the setting, so a violation names the host.
import type { ResourceValidationPolicy } from "@pulumi/policy";
import { SCRIPT_BUNDLE_TYPE } from "@ovn-kubernetes-as-code/cluster/hosts";

export const hostKeysVerified: ResourceValidationPolicy = {
    name: "host-keys-verified",
    description: "No stack sets ssh.insecureIgnoreHostKey: every host's SSH key is pinned and verified before login.",
    enforcementLevel: "mandatory",
    validateResource(args, reportViolation) {
        if (args.type !== SCRIPT_BUNDLE_TYPE) return;
        if (args.props.ssh?.insecureIgnoreHostKey === true)
            reportViolation(
                `host ${args.props.ssh.host}: ssh.insecureIgnoreHostKey is true; pin nodes[].hostKey (ssh-keyscan -t ed25519 <host>) and remove it`,
            );
    },
};
