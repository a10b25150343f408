// The cluster component's arguments split into the settings validation reads and the secrets,
// which stay Pulumi secrets: validation parses a secret given as text as key material, never quoting it.
import * as pulumi from "@pulumi/pulumi";
import type { OvnKubernetesClusterArgs } from "./clusterArgs";
import { planCluster, type ClusterPlan } from "../plan/validate";
import type { SecretTexts } from "../plan/checks/keyMaterial";
import { SECRET_KEYS } from "../config/types";
import { SECRET_PRESENT, type Secrets } from "./readConfig";

/**
 * Validates the arguments (throws ConfigError naming each bad setting's path) and plans the cluster
 * from them. Secrets given as plain strings (a TypeScript program) are parsed as key material too.
 */
export function clusterInputs(args: OvnKubernetesClusterArgs): ClusterPlan & { secrets: Secrets } {
    const { owner: _owner, sshPrivateKeyConfig: _keyConfig, ...given } = args;
    const raw: Record<string, unknown> = { ...given };
    const secrets: Secrets = {};
    const texts: SecretTexts = {};
    for (const key of SECRET_KEYS) {
        const value = given[key];
        if (value === undefined) continue;
        secrets[key] = pulumi.secret(value);
        raw[key] = value === "" ? "" : SECRET_PRESENT;
        if (typeof value === "string" && value !== "") texts[key] = value;
    }
    return { ...planCluster(raw, texts), secrets };
}
