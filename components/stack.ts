// The program's body: read the stack config, validate it (nothing is registered when it is
// invalid), create the cluster. index.ts runs it; tests run it under mocks.
import * as pulumi from "@pulumi/pulumi";
import { OvnKubernetesCluster } from "./cluster";
import { ConfigError, validateConfig } from "./plan/validate";
import { SECRET_KEYS, type ClusterSettings } from "./config/types";
import { readStackConfig } from "./program/readConfig";

export function deployStack(config = new pulumi.Config()): OvnKubernetesCluster {
    const { raw, secrets, secretTexts } = readStackConfig(config);
    try {
        // The secrets' key material is checked here, where their texts are at hand; the component
        // checks the rest again from its arguments, as it does for every language.
        validateConfig(raw, secretTexts);
    } catch (e) {
        // A RunError is reported as the message alone: one line per problem, no stack trace.
        if (e instanceof ConfigError) throw new pulumi.RunError(e.message);
        throw e;
    }
    const settings = Object.fromEntries(Object.entries(raw).filter(([k]) => !(SECRET_KEYS as readonly string[]).includes(k)));
    return new OvnKubernetesCluster("ovn", {
        ...(settings as unknown as ClusterSettings),
        ...secrets,
        sshPrivateKey: secrets.sshPrivateKey!,
    });
}
