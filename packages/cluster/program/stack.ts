// The program's body: read the stack config, validate it (nothing is registered when it is
// invalid), create the cluster. index.ts runs it; tests run it under mocks.
import * as pulumi from "@pulumi/pulumi";
import { OvnKubernetesCluster } from "../cluster";
import { ConfigError, validateConfig } from "../config/validate";
import { logConfigWarnings, readStackConfig } from "./readConfig";

export function deployStack(config = new pulumi.Config()): OvnKubernetesCluster {
    const { raw, secrets, secretTexts } = readStackConfig(config);
    let validated;
    try {
        validated = validateConfig(raw, secretTexts);
    } catch (e) {
        // A RunError is reported as the message alone: one line per problem, no stack trace.
        if (e instanceof ConfigError) throw new pulumi.RunError(e.message);
        throw e;
    }
    logConfigWarnings(validated);
    return new OvnKubernetesCluster("ovn", { config: validated, secrets, owner: `${pulumi.getProject()}/${pulumi.getStack()}` });
}
