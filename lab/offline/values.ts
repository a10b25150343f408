// Property values as the engine handles them: plain JSON-like data in which a secret is an object
// carrying the engine's signature key (see ./sdk.ts). Helpers to compare them, to carry secrecy
// from inputs over to outputs as the engine does for providers that do not accept secrets, and to
// keep secret text out of anything printed.
import { isSecretValue, SECRET_SIG, SIG_KEY, UNKNOWN_VALUE, unwrapSecrets } from "./sdk";

export type Props = Record<string, unknown>;

export const secret = (value: unknown) => ({ [SIG_KEY]: SECRET_SIG, value });

/** Equality of two values as JSON data (key order does not matter; undefined equals absent). */
export function deepEqual(a: unknown, b: unknown): boolean {
    if (a === b) return true;
    if (a === null || b === null || typeof a !== "object" || typeof b !== "object") return false;
    if (Array.isArray(a) !== Array.isArray(b)) return false;
    if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => deepEqual(x, b[i]));
    const ao = a as Props;
    const bo = b as Props;
    const keys = new Set([...Object.keys(ao), ...Object.keys(bo)]);
    for (const k of keys) if (!deepEqual(ao[k], bo[k])) return false;
    return true;
}

/** Top-level keys whose values differ, ignoring secrecy (a value that became secret is not a change). */
export function changedKeys(olds: Props, news: Props, ignore: string[] = []): string[] {
    const keys = [...new Set([...Object.keys(olds), ...Object.keys(news)])].filter((k) => !ignore.includes(k));
    return keys.filter((k) => !deepEqual(unwrapSecrets(olds[k]), unwrapSecrets(news[k]))).sort();
}

/** A copy without `undefined` anywhere: protobuf Structs cannot carry it (arrays keep their length as null). */
export function structSafe<T>(value: T): T {
    return value === undefined ? value : (JSON.parse(JSON.stringify(value)) as T);
}

/**
 * Marks as secret every top-level output whose input of the same name was secret, or that is
 * listed in `extra` (additionalSecretOutputs): what the engine does for a provider that was
 * configured without secret support and so returned everything in the clear.
 */
export function annotateSecrets(outputs: Props, inputs: Props, extra: string[] = []): Props {
    const out: Props = {};
    for (const [k, v] of Object.entries(outputs)) {
        const wanted = isSecretValue(inputs[k]) || extra.includes(k);
        out[k] = wanted && !isSecretValue(v) ? secret(v) : v;
    }
    return out;
}

/** Every string inside a secret, the material a redactor must hide. */
export function secretStrings(value: unknown, inSecret = false, found: string[] = []): string[] {
    if (isSecretValue(value)) return secretStrings(value.value, true, found);
    if (typeof value === "string") {
        if (inSecret) found.push(value);
    } else if (Array.isArray(value)) {
        for (const v of value) secretStrings(v, inSecret, found);
    } else if (value && typeof value === "object") {
        for (const v of Object.values(value)) secretStrings(v, inSecret, found);
    }
    return found;
}

/** Every string outside any secret (public values; see Redactor.addPublic). */
export function plainStrings(value: unknown, found: string[] = []): string[] {
    if (isSecretValue(value)) return found;
    if (typeof value === "string") found.push(value);
    else if (Array.isArray(value)) for (const v of value) plainStrings(v, found);
    else if (value && typeof value === "object") for (const v of Object.values(value)) plainStrings(v, found);
    return found;
}

/** Replaces each secret by "[secret]" (and a preview's unknowns by "[unknown]"), for results that are printed or handed to callers. */
export function maskSecrets(value: unknown): unknown {
    if (isSecretValue(value)) return "[secret]";
    if (value === UNKNOWN_VALUE) return "[unknown]";
    if (Array.isArray(value)) return value.map(maskSecrets);
    if (value && typeof value === "object") return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, maskSecrets(v)]));
    return value;
}
