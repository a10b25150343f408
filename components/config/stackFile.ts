// Reads the `ovn-kubernetes:` keys of a stacks/Pulumi.<env>.yaml file without the Pulumi CLI,
// for offline validation and rendering. Secrets stay ciphertext (`{secure: …}`): presence is
// all that validation needs.
import { readFileSync } from "fs";
import { LineCounter, parseDocument } from "yaml";
import { ConfigError } from "./problem";
import { SECRET_KEYS } from "./types";
import { yamlReaderProblems } from "./yamlReaders";

export const PROJECT = "ovn-kubernetes";

/**
 * The project's keys, without their namespace. Keys of other namespaces belong to other packages
 * (`kubernetes:context`) and are left out, except under a namespace one or two typing mistakes
 * away from the project's (`ovn-kubernets:nodes`): those keep their full key, so that validation
 * names them as unknown instead of the setting silently missing. Throws ConfigError where the
 * Pulumi CLI would read a value otherwise than this reader (./yamlReaders.ts).
 */
export function configFromStackYaml(text: string, project = PROJECT): Record<string, unknown> {
    const lines = new LineCounter();
    const parsed = parseDocument(text, { lineCounter: lines });
    if (parsed.errors.length) throw parsed.errors[0];
    const keyOf = (key: string): string | undefined => {
        const colon = key.indexOf(":");
        const namespace = key.slice(0, colon);
        // Keys without a namespace belong to the project, as in Pulumi itself.
        if (colon < 0) return key;
        if (namespace === project) return key.slice(colon + 1);
        if (isMisspelledNamespace(namespace, project)) return key;
        return undefined;
    };
    const secret = (path: string) => (SECRET_KEYS as readonly string[]).includes(path.split(/[.[]/)[0]);
    const disagreements = yamlReaderProblems(parsed, lines, keyOf, secret);
    if (disagreements.length) throw new ConfigError(disagreements);
    const doc = (parsed.toJS() ?? {}) as { config?: Record<string, unknown> };
    const out: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(doc.config ?? {})) {
        const k = keyOf(key);
        if (k !== undefined) out[k] = value;
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
