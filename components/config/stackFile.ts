// Reads the `ovn-kubernetes:` keys of a stacks/Pulumi.<env>.yaml file without the Pulumi CLI,
// for offline validation and rendering. Secrets stay ciphertext (`{secure: …}`): presence is
// all that validation needs.
import { readFileSync } from "fs";
import { parse } from "yaml";

export const PROJECT = "ovn-kubernetes";

/**
 * The project's keys, without their namespace. Keys of other namespaces belong to other packages
 * (`kubernetes:context`) and are left out, except under a namespace one or two typing mistakes
 * away from the project's (`ovn-kubernets:nodes`): those keep their full key, so that validation
 * names them as unknown instead of the setting silently missing.
 */
export function configFromStackYaml(text: string, project = PROJECT): Record<string, unknown> {
    const doc = (parse(text) ?? {}) as { config?: Record<string, unknown> };
    const out: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(doc.config ?? {})) {
        const colon = key.indexOf(":");
        const namespace = key.slice(0, colon);
        // Keys without a namespace belong to the project, as in Pulumi itself.
        if (colon < 0) out[key] = value;
        else if (namespace === project) out[key.slice(colon + 1)] = value;
        else if (isMisspelledNamespace(namespace, project)) out[key] = value;
    }
    return out;
}

/** A namespace one or two typing mistakes (or only case) away from the project's. */
export function isMisspelledNamespace(namespace: string, project = PROJECT): boolean {
    return namespace !== project && editDistance(namespace.toLowerCase(), project) <= 2;
}

/** Levenshtein distance: how many characters to insert, delete or replace to turn `a` into `b`. */
function editDistance(a: string, b: string): number {
    let row = Array.from({ length: b.length + 1 }, (_, j) => j);
    for (let i = 1; i <= a.length; i++) {
        const next = [i];
        for (let j = 1; j <= b.length; j++) next[j] = Math.min(row[j] + 1, next[j - 1] + 1, row[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
        row = next;
    }
    return row[b.length];
}

export function readStackFile(path: string): Record<string, unknown> {
    return configFromStackYaml(readFileSync(path, "utf8"));
}
