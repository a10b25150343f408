// The cluster component's arguments split into the settings validation reads and the secrets,
// which stay Pulumi secrets: validation sees only whether each is there, never its value.
import * as pulumi from "@pulumi/pulumi";
import type { OvnKubernetesClusterArgs } from "../clusterArgs";
import { validateConfig } from "../config/validate";
import { SECRET_KEYS, type StackConfig } from "../config/types";
import { SECRET_PRESENT, type Secrets } from "./readConfig";

/** Validates the arguments (throws ConfigError naming each bad setting's path). */
export function clusterInputs(args: OvnKubernetesClusterArgs): { config: StackConfig; secrets: Secrets } {
    const { owner: _owner, sshPrivateKeyConfig: _keyConfig, ...given } = args;
    const raw: Record<string, unknown> = { ...given };
    const secrets: Secrets = {};
    for (const key of SECRET_KEYS) {
        const value = given[key];
        if (value === undefined) continue;
        secrets[key] = pulumi.secret(value);
        raw[key] = value === "" ? "" : SECRET_PRESENT;
    }
    return { config: validateConfig(raw), secrets };
}
