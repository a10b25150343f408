// The engine's own property diff, for providers that leave the diff to it, and the resource
// options that act on diffs, as pulumi/pulumi v3.259.0 does them:
// - a provider answering DIFF_UNKNOWN: the engine resets ignoreChanges paths in the new inputs,
//   diffs old against new inputs and reports the changed top-level keys and a DetailedDiff by
//   property path (pkg/resource/deploy/step_generator.go:2984-2993; the diff itself
//   sdk/go/common/resource/properties_diff.go:187 and :273, the DetailedDiff
//   sdk/go/common/resource/plugin/provider.go:755);
// - ignoreChanges: each path reset to its old value, before Check as well (step_generator.go:1267,
//   processIgnoreChanges :3028);
// - replaceOnChanges: a DetailedDiff entry or changed key under one of its paths becomes a
//   replacement (applyReplaceOnChanges, step_generator.go:3122).
// Property paths: ./propertyPath.
// Values are JSON-like: a secret is the SDK's signed wrapper (compared by what it wraps, a leaf
// for the diff), null is no value, an unknown is the SDK's unknown string.
import { isObject, parsePath, pathContains, pathString, resetPath, type PathElement } from "./propertyPath";
import { isSecretValue } from "./sdk";
import { deepEqual, type Props } from "./values";

export type PropertyDiffKind = "add" | "add-replace" | "delete" | "delete-replace" | "update" | "update-replace";

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
    const same =
        isSecretValue(a) || isSecretValue(b) ? isSecretValue(a) && isSecretValue(b) && deepEqual(a.value, b.value) : deepEqual(a, b);
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

/**
 * processIgnoreChanges: `inputs` with every ignoreChanges path set back to its value in
 * `oldInputs`; `invalid` lists the paths that named added or removed elements (the engine says so
 * and goes on). A path that does not parse is skipped, as the engine skips it.
 */
export function processIgnoreChanges(
    inputs: Props,
    oldInputs: Props,
    ignoreChanges: readonly string[],
): { inputs: Props; invalid: string[] } {
    const out = structuredClone(inputs);
    const invalid: string[] = [];
    for (const text of ignoreChanges) {
        let path: PathElement[];
        try {
            path = parsePath(text);
        } catch {
            continue;
        }
        if (!resetPath(path, oldInputs, out)) invalid.push(text);
    }
    return { inputs: out, invalid };
}

/** diffResource: the provider's reply, and on DIFF_UNKNOWN the engine's diff of the inputs (ignoreChanges applied). */
export function resolveDiff(
    reply: ProviderDiffReply,
    oldInputs: Props,
    newInputs: Props,
    ignoreChanges: readonly string[] = [],
): EngineDiff {
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
    const detailedDiff =
        diff.detailedDiff && Object.fromEntries(Object.entries(diff.detailedDiff).map(([p, k]) => [p, covered(p) ? toReplace(k) : k]));
    const replaceKeys = [...new Set([...diff.replaceKeys, ...diff.changedKeys.filter(covered)])];
    return { ...diff, replaceKeys, ...(detailedDiff ? { detailedDiff } : {}) };
}

/** DiffResult.Replace: a replacement key, or a DetailedDiff entry of a replacing kind. */
export const isReplacement = (diff: EngineDiff): boolean =>
    diff.replaceKeys.length > 0 || Object.values(diff.detailedDiff ?? {}).some((k) => k.endsWith("-replace"));
