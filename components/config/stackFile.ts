// Reads the `ovn-kubernetes:` keys of a stacks/Pulumi.<env>.yaml file without the Pulumi CLI,
// for offline validation and rendering. Secrets stay ciphertext (`{secure: …}`): presence is
// all that validation needs.
import { readFileSync } from "fs";
import { parse } from "yaml";

export const PROJECT = "ovn-kubernetes";

export function configFromStackYaml(text: string, project = PROJECT): Record<string, unknown> {
    const doc = (parse(text) ?? {}) as { config?: Record<string, unknown> };
    const out: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(doc.config ?? {})) {
        const colon = key.indexOf(":");
        // Keys without a namespace belong to the project, as in Pulumi itself.
        if (colon < 0) out[key] = value;
        else if (key.slice(0, colon) === project) out[key.slice(colon + 1)] = value;
    }
    return out;
}

export function readStackFile(path: string): Record<string, unknown> {
    return configFromStackYaml(readFileSync(path, "utf8"));
}
