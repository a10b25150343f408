// Property paths as the engine writes, reads, matches and resets them (pulumi/pulumi v3.259.0
// sdk/go/common/resource/properties_path.go: ParsePropertyPath :146, Contains :314, Reset :574,
// String :582). Values are JSON-like: a secret is the SDK's signed wrapper, null is no value.
import { isSecretValue } from "./sdk";
import { secret, type Props } from "./values";

export type PathElement = string | number;

/** An object that is not an array or a secret: what the engine walks into. */
export const isObject = (v: unknown): v is Props => typeof v === "object" && v !== null && !Array.isArray(v) && !isSecretValue(v);

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
        if (isObject(old) && isObject(neu))
            return Object.keys(old).every((k) => k in neu && reset(rest, old[k], neu[k], oldSecret, newSecret));
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

/** PropertyPath.Reset: sets `path` in `inputs` (mutated) to its value in `oldInputs`; false where the engine cannot (an element added or removed). */
export function resetPath(path: PathElement[], oldInputs: Props, inputs: Props): boolean {
    return reset(path, oldInputs, inputs, false, false);
}
