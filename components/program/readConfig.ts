// Reads the `ovn-kubernetes:` stack configuration through the Pulumi SDK. Plain keys become the
// raw object that validation checks; secret keys stay Pulumi secrets and only their presence
// reaches validation, so a secret value never appears in an error or a log.
import * as pulumi from "@pulumi/pulumi";
import { stackConfigSchema } from "../config/schema";
import { SECRET_KEYS, SecretKey } from "../config/types";

export type Secrets = Partial<Record<SecretKey, pulumi.Output<string>>>;

const isSecretKey = (k: string): k is SecretKey => (SECRET_KEYS as readonly string[]).includes(k);

/** Marker that stands for a present secret in the object validation sees. */
export const SECRET_PRESENT = { secure: "(secret)" };

export function readStackConfig(config = new pulumi.Config()): { raw: Record<string, unknown>; secrets: Secrets } {
    const raw: Record<string, unknown> = {};
    const secrets: Secrets = {};
    const all = pulumi.runtime.allConfig();
    for (const [key, schema] of Object.entries(stackConfigSchema.properties)) {
        if (isSecretKey(key)) {
            const value = config.getSecret(key);
            if (value !== undefined) {
                secrets[key] = value;
                // Only emptiness is looked at, so that an empty secret is reported, not its value.
                raw[key] = all[`${config.name}:${key}`] === "" ? "" : SECRET_PRESENT;
            }
            continue;
        }
        // Pulumi hands every value over as text; structured and numeric values are JSON.
        const text = config.get(key);
        if (text === undefined) continue;
        raw[key] = "type" in schema && schema.type === "string" ? text : parseJson(text);
    }
    // Keys the schema does not know (a typo such as `mut: 9000`) must not be silently ignored:
    // they go to validation, which names them.
    const prefix = `${config.name}:`;
    for (const fullKey of Object.keys(all)) {
        const key = fullKey.slice(prefix.length);
        if (fullKey.startsWith(prefix) && !(key in stackConfigSchema.properties)) raw[key] = "(unknown)";
    }
    return { raw, secrets };
}

function parseJson(text: string): unknown {
    try {
        return JSON.parse(text);
    } catch {
        return text; // left for the schema to reject with the key's path
    }
}
