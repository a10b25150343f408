// The engine's own property diff, for providers that leave the diff to it, and the resource
// options that act on diffs, as pulumi/pulumi v3.259.0 does them:
// - a provider answering DIFF_UNKNOWN: the engine resets ignoreChanges paths in the new inputs,
//   diffs old against new inputs and reports the changed top-level keys and a DetailedDiff by
//   property path (pkg/resource/deploy/step_generator.go:2984-2993; the diff itself
//   sdk/go/common/resource/properties_diff.go:187 and :273, the DetailedDiff
//   sdk/go/common/resource/plugin/provider.go:755);
// - ignoreChanges: each path reset to its old value, before Check as well (step_generator.go:1267,
//   processIgnoreChanges :3028, PropertyPath.Reset sdk/go/common/resource/properties_path.go:574);
// - replaceOnChanges: a DetailedDiff entry or changed key under one of its paths becomes a
//   replacement (applyReplaceOnChanges, step_generator.go:3122; PropertyPath.Contains :314).
// Values are JSON-like: a secret is the SDK's signed wrapper (compared by what it wraps, a leaf
// for the diff), null is no value, an unknown is the SDK's unknown string.
import { isSecretValue } from "./sdk";
import { deepEqual, secret, type Props } from "./values";

export type PropertyDiffKind = "add" | "add-replace" | "delete" | "delete-replace" | "update" | "update-replace";
type PathElement = string | number;

/** What the engine knows of a resource's diff once the provider answered. */
export interface EngineDiff {
    changes: boolean;
    /** Top-level input names that changed (ChangedKeys). */
    changedKeys: string[];
    replaceKeys: string[];
    /** By property path, as the engine writes it; absent when the provider gave none. */
    detailedDiff?: Record<string, PropertyDiffKind>;
    deleteBeforeReplace: boolean;
}

/** A provider's Diff reply: changes 0 unknown (also: the provider has no diff), 1 none, 2 some (pulumirpc.DiffResponse.DiffChanges). */
export interface ProviderDiffReply {
    changes: number;
    replaces: string[];
    deleteBeforeReplace: boolean;
}

const DIFF_UNKNOWN = 0;
const DIFF_SOME = 2;

const hasValue = (v: unknown) => v !== null && v !== undefined;
const isObject = (v: unknown): v is Props => typeof v === "object" && v !== null && !Array.isArray(v) && !isSecretValue(v);

/** PropertyPath.String: a name of letters, digits and `_` after a dot, any other in `["…"]`, indexes in `[n]`. */
export function pathString(path: PathElement[]): string {
    return path
        .map((k, i) => {
            if (typeof k === "number") return `[${k}]`;
            if (/[^A-Za-z0-9_]/.test(k)) return `["${k.replace(/"/g, '\\"')}"]`;
            return i === 0 ? k : `.${k}`;
        })
        .join("");
}

/** ParsePropertyPath (lenient): names, `["quoted"]` names, `[n]` indexes and `*`. */
export function parsePath(text: string): PathElement[] {
    if (text.startsWith(".")) throw new Error(`property path ${JSON.stringify(text)}: expected a name or index first`);
    const out: PathElement[] = [];
    let rest = text;
    while (rest.length > 0) {
        if (rest[0] === ".") {
            rest = rest.slice(1);
            if (rest.length === 0) throw new Error(`property path ${JSON.stringify(text)}: expected a name or index last`);
        } else if (rest.startsWith('["')) {
            const m = /^\["((?:[^"\\]|\\")*)"\]/.exec(rest);
            if (!m) throw new Error(`property path ${JSON.stringify(text)}: missing closing quote or bracket`);
            out.push(m[1].replace(/\\"/g, '"'));
            rest = rest.slice(m[0].length);
        } else if (rest[0] === "[") {
            const end = rest.indexOf("]");
            const segment = end === -1 ? "" : rest.slice(1, end);
            if (segment !== "*" && !/^-?\d+$/.test(segment)) throw new Error(`property path ${JSON.stringify(text)}: invalid array index`);
            out.push(segment === "*" ? "*" : Number(segment));
            rest = rest.slice(end + 1);
        } else {
            const m = /^[^.[]+/.exec(rest)!;
            out.push(m[0]);
            rest = rest.slice(m[0].length);
        }
    }
    return out;
}

/** PropertyPath.Contains: `other` is `path` or under it (`*` matches any name). */
export function pathContains(path: PathElement[], other: PathElement[]): boolean {
    if (other.length < path.length) return false;
    return path.every((p, i) => (typeof p === "number" ? other[i] === p : p === "*" || (typeof other[i] === "string" && other[i] === p)));
}

type Acc = Record<string, PropertyDiffKind>;

/** PropertyValue.diff into DetailedDiff entries under `path`; false when the values are equal. */
function valueDiff(a: unknown, b: unknown, path: PathElement[], acc: Acc): boolean {
    if (Array.isArray(a) && Array.isArray(b)) {
        let changed = false;
        for (let i = 0; i < Math.max(a.length, b.length); i++) {
            const at = [...path, i];
            if (i >= a.length) acc[pathString(at)] = "add";
            else if (i >= b.length) acc[pathString(at)] = "delete";
            else if (!valueDiff(a[i], b[i], at, acc)) continue;
            changed = true;
        }
        return changed;
    }
    if (isObject(a) && isObject(b)) return objectDiff(a, b, path, acc).length > 0;
    const same = isSecretValue(a) || isSecretValue(b) ? isSecretValue(a) && isSecretValue(b) && deepEqual(a.value, b.value) : deepEqual(a, b);
    if (same) return false;
    acc[pathString(path)] = !hasValue(a) && hasValue(b) ? "add" : hasValue(a) && !hasValue(b) ? "delete" : "update";
    return true;
}

/** PropertyMap.diff: the keys that changed, their DetailedDiff entries added to `acc`. */
function objectDiff(a: Props, b: Props, path: PathElement[], acc: Acc): string[] {
    const changed: string[] = [];
    for (const k of [...new Set([...Object.keys(a), ...Object.keys(b)])].sort()) {
        const [old, neu] = [a[k], b[k]];
        if (!hasValue(old) && !hasValue(neu)) continue;
        const at = [...path, k];
        if (!hasValue(old)) acc[pathString(at)] = "add";
        else if (!hasValue(neu)) acc[pathString(at)] = "delete";
        else if (!valueDiff(old, neu, at, acc)) continue;
        changed.push(k);
    }
    return changed;
}

/** The engine's diff of two input bags: ChangedKeys and DetailedDiff. */
export function inputDiff(olds: Props, news: Props): { changedKeys: string[]; detailedDiff: Record<string, PropertyDiffKind> } {
    const detailedDiff: Acc = {};
    const changedKeys = objectDiff(olds, news, [], detailedDiff);
    return { changedKeys, detailedDiff };
}

const unwrap = (v: unknown): [unknown, boolean] => (isSecretValue(v) ? [unwrap(v.value)[0], true] : [v, false]);

/** PropertyPath.reset: sets `path` in `neu` (mutated) to its value in `old`; false where the engine cannot. */
function reset(path: PathElement[], oldValue: unknown, newValue: unknown, oldSecret: boolean, newSecret: boolean): boolean {
    if (path.length === 0) return false;
    const [old, os] = unwrap(oldValue);
    const [neu, ns] = unwrap(newValue);
    [oldSecret, newSecret] = [oldSecret || os, newSecret || ns];
    const carry = (v: unknown) => (oldSecret && !newSecret ? secret(v) : v);
    const [key, rest] = [path[0], path.slice(1)];
    if (typeof key === "number") {
        if (key < 0) return false;
        if (!Array.isArray(old) || !Array.isArray(neu)) return !Array.isArray(old) && !Array.isArray(neu);
        if (rest.length === 0) {
            if (key >= old.length && key >= neu.length) return true;
            if (key >= old.length || key >= neu.length) return false;
            neu[key] = carry(old[key]);
            return true;
        }
        if (key >= old.length || key >= neu.length) return false;
        return reset(rest, old[key], neu[key], oldSecret, newSecret);
    }
    if (key === "*") {
        if (rest.length === 0) {
            if (isObject(neu)) {
                if (isObject(old)) {
                    for (const k of Object.keys(neu)) if (!(k in old)) delete neu[k];
                    for (const k of Object.keys(old)) neu[k] = carry(old[k]);
                }
                return true;
            }
            if (!Array.isArray(neu)) return false;
            if (!Array.isArray(old)) return true;
            for (let i = 0; i < Math.min(old.length, neu.length); i++) neu[i] = carry(old[i]);
            return old.length === neu.length;
        }
        if (isObject(old) && isObject(neu)) return Object.keys(old).every((k) => k in neu && reset(rest, old[k], neu[k], oldSecret, newSecret));
        if (Array.isArray(old) && Array.isArray(neu)) {
            for (let i = 0; i < Math.min(old.length, neu.length); i++) if (!reset(rest, old[i], neu[i], oldSecret, newSecret)) return false;
            return old.length === neu.length;
        }
        return false;
    }
    if (rest.length === 0) {
        if (isObject(old) && key in old) {
            if (!isObject(neu)) return false;
            neu[key] = carry(old[key]);
        } else if (isObject(neu)) delete neu[key];
        return true;
    }
    if (!isObject(old) || !isObject(neu)) return !isObject(old) && !isObject(neu);
    if (!(key in neu)) return !(key in old);
    return reset(rest, old[key], neu[key], oldSecret, newSecret);
}

/**
 * processIgnoreChanges: `inputs` with every ignoreChanges path set back to its value in
 * `oldInputs`; `invalid` lists the paths that named added or removed elements (the engine says so
 * and goes on). A path that does not parse is skipped, as the engine skips it.
 */
export function processIgnoreChanges(inputs: Props, oldInputs: Props, ignoreChanges: readonly string[]): { inputs: Props; invalid: string[] } {
    const out = structuredClone(inputs);
    const invalid: string[] = [];
    for (const text of ignoreChanges) {
        let path: PathElement[];
        try {
            path = parsePath(text);
        } catch {
            continue;
        }
        if (!reset(path, oldInputs, out, false, false)) invalid.push(text);
    }
    return { inputs: out, invalid };
}

/** diffResource: the provider's reply, and on DIFF_UNKNOWN the engine's diff of the inputs (ignoreChanges applied). */
export function resolveDiff(reply: ProviderDiffReply, oldInputs: Props, newInputs: Props, ignoreChanges: readonly string[] = []): EngineDiff {
    const base = { replaceKeys: reply.replaces, deleteBeforeReplace: reply.deleteBeforeReplace };
    if (reply.changes !== DIFF_UNKNOWN) return { ...base, changes: reply.changes === DIFF_SOME, changedKeys: [] };
    const { changedKeys, detailedDiff } = inputDiff(oldInputs, processIgnoreChanges(newInputs, oldInputs, ignoreChanges).inputs);
    return changedKeys.length > 0 ? { ...base, changes: true, changedKeys, detailedDiff } : { ...base, changes: false, changedKeys: [] };
}

const toReplace = (k: PropertyDiffKind): PropertyDiffKind => (k.endsWith("-replace") ? k : (`${k}-replace` as PropertyDiffKind));

/** applyReplaceOnChanges: DetailedDiff entries and changed keys under a replaceOnChanges path become replacements. */
export function applyReplaceOnChanges(diff: EngineDiff, replaceOnChanges: readonly string[]): EngineDiff {
    if (!diff.changes || replaceOnChanges.length === 0) return diff;
    const paths = replaceOnChanges.map(parsePath);
    const covered = (p: string) => paths.some((r) => pathContains(r, parsePath(p)));
    const detailedDiff = diff.detailedDiff && Object.fromEntries(Object.entries(diff.detailedDiff).map(([p, k]) => [p, covered(p) ? toReplace(k) : k]));
    const replaceKeys = [...new Set([...diff.replaceKeys, ...diff.changedKeys.filter(covered)])];
    return { ...diff, replaceKeys, ...(detailedDiff ? { detailedDiff } : {}) };
}

/** DiffResult.Replace: a replacement key, or a DetailedDiff entry of a replacing kind. */
export const isReplacement = (diff: EngineDiff): boolean =>
    diff.replaceKeys.length > 0 || Object.values(diff.detailedDiff ?? {}).some((k) => k.endsWith("-replace"));
