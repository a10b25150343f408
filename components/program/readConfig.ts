// Reads the `ovn-kubernetes:` stack configuration through the Pulumi SDK. Plain keys become the
// raw object that validation checks; secret keys stay Pulumi secrets and only their presence
// reaches validation, so a secret value never appears in an error or a log.
import * as pulumi from "@pulumi/pulumi";
import { stackConfigSchema } from "../config/schema";
import { PLAIN_TEXT_SECRET } from "../config/secretStorage";
import { isMisspelledNamespace } from "../config/stackFile";
import { SECRET_KEYS, SecretKey, StackConfig } from "../config/types";
import { configWarnings } from "../config/warnings";
import type { SecretTexts } from "../plan/checks/keyMaterial";

export type Secrets = Partial<Record<SecretKey, pulumi.Output<string>>>;

/** The full stack config key of the SSH private key, as readStackConfig reads it with `config`. */
export const sshPrivateKeyConfig = (config = new pulumi.Config()): string => `${config.name}:${"sshPrivateKey" satisfies SecretKey}`;

const isSecretKey = (k: string): k is SecretKey => (SECRET_KEYS as readonly string[]).includes(k);

/** Marker that stands for a present secret in the object validation sees. */
export const SECRET_PRESENT = { secure: "(secret)" };

/**
 * Whether the engine holds this key as a secret. The SDK knows (PULUMI_CONFIG_SECRET_KEYS) but does
 * not declare the function in its types; without it every value counts as a secret, as before.
 */
const isConfigSecret = (fullKey: string): boolean => {
    const known = (pulumi.runtime as unknown as { isConfigSecret?: (k: string) => boolean }).isConfigSecret;
    return known === undefined || known(fullKey);
};

/**
 * `secretTexts`: the secrets' plain values, which validation parses as key material (and never
 * quotes); the program hands on only `secrets`, the Pulumi secrets.
 */
export function readStackConfig(config = new pulumi.Config()): {
    raw: Record<string, unknown>;
    secrets: Secrets;
    secretTexts: SecretTexts;
} {
    const raw: Record<string, unknown> = {};
    const secrets: Secrets = {};
    const secretTexts: SecretTexts = {};
    const all = pulumi.runtime.allConfig();
    for (const [key, schema] of Object.entries(stackConfigSchema.properties)) {
        if (isSecretKey(key)) {
            const value = config.getSecret(key);
            if (value !== undefined) {
                secrets[key] = value;
                // Only emptiness and encryption are looked at, so that an empty or plain-text secret
                // is reported, never its value.
                const fullKey = `${config.name}:${key}`;
                raw[key] = all[fullKey] === "" ? "" : isConfigSecret(fullKey) ? SECRET_PRESENT : PLAIN_TEXT_SECRET;
                if (all[fullKey]) secretTexts[key] = all[fullKey];
            }
            continue;
        }
        // Pulumi hands every value over as text; structured and numeric values are JSON.
        const text = config.get(key);
        if (text === undefined) continue;
        raw[key] = "type" in schema && schema.type === "string" ? text : parseJson(text);
    }
    // Keys the schema does not know (a typo such as `mut: 9000`, or `ovn-kubernets:nodes`) must
    // not be silently ignored: they go to validation, which names them.
    const prefix = `${config.name}:`;
    for (const fullKey of Object.keys(all)) {
        const key = fullKey.slice(prefix.length);
        if (fullKey.startsWith(prefix) && !(key in stackConfigSchema.properties)) raw[key] = "(unknown)";
        else if (isMisspelledNamespace(fullKey.slice(0, fullKey.indexOf(":")), config.name)) raw[fullKey] = "(unknown)";
    }
    return { raw, secrets, secretTexts };
}

function parseJson(text: string): unknown {
    try {
        return JSON.parse(text);
    } catch {
        return text; // left for the schema to reject with the key's path
    }
}

/** Says what is valid but unsafe (see ../config/warnings.ts) in the engine's log, on every run. */
export function logConfigWarnings(config: StackConfig, resource?: pulumi.Resource): void {
    for (const w of configWarnings(config)) pulumi.log.warn(`${w.path}: ${w.message}`, resource);
}
