// The field language of the NB kinds: each kind lists its inputs once, as fields, and that list
// gives the input type (ValueOf), the copy of the inputs kept in state (normalize, which also
// picks the NB part out of a model object), the checks (validate) and the paths whose change
// replaces the resource (replacePaths). Pure; plain data and functions only (providers are
// serialized).
import { contains, parseNetwork, type PatternName } from "../../values";
import { UNKNOWN, type Checker } from "../core/check";

/** One input field; T is the type the kind's row builder sees. */
export interface Field<T> {
    /** A change of this value is another set of rows (a name, a group id): replace. */
    replace: boolean;
    /** The value to keep: only known parts, never undefined (outputs become protobuf Structs). */
    normalize(raw: unknown): unknown;
    /** Reports failures at `path`; returns the value when it is valid (for fields that refer to it). */
    validate(c: Checker, path: string, siblings: Record<string, unknown>): unknown;
    /** Nested fields (objects), for replace paths. */
    fields?: Fields;
    /** Phantom: the value type. */
    readonly type?: T;
}

export type Fields = Record<string, Field<unknown>>;
export type ValueOf<F extends Fields> = { [K in keyof F]: F[K] extends Field<infer T> ? T : never };

const plain = <T>(replace: boolean, validate: Field<T>["validate"]): Field<T> => ({ replace, normalize: (raw) => raw, validate });

/** A string matched against one of the shared patterns (../patterns). */
export const text = (rule: PatternName, opts: { replace?: boolean } = {}): Field<string> =>
    plain(opts.replace ?? false, (c, path) => c.text(path, rule));

export const ipv4 = (): Field<string> => text("ipv4");

/** An OVN row name the kind's rows take (switch, router, port): unique in NB, so a rename is other rows. */
export const ovnName = (): Field<string> => text("ovnName", { replace: true });

/** A network CIDR (address bits beyond the prefix are zero). */
export const network = (): Field<string> => plain(false, (c, path) => c.network(path));

/** A unicast MAC. */
export const mac = (): Field<string> => plain(false, (c, path) => c.unicastMac(path));

type Address<M extends boolean> = M extends false ? { ip: string; cidr: string } : { ip: string; cidr: string; mac: string };

/**
 * An interface address `{ip, cidr[, mac]}` whose cidr is ip with its prefix; `within` names a
 * sibling network field the ip must lie in.
 */
export function address<M extends boolean = true>(opts: { mac?: M; within?: string } = {}): Field<Address<M>> {
    const keys = opts.mac === false ? ["ip", "cidr"] : ["ip", "cidr", "mac"];
    return {
        replace: false,
        normalize: (raw) => (raw === undefined ? undefined : copyPresent(raw, keys)),
        validate: (c, path, siblings) => {
            const within = opts.within === undefined ? undefined : siblings[opts.within];
            c.address(path, { mac: opts.mac !== false, within: typeof within === "string" ? within : undefined });
            return undefined;
        },
    };
}

/** A list of network CIDRs (default empty); `within` names a sibling network field each must lie in. */
export function networks(opts: { within?: string } = {}): Field<string[]> {
    return {
        replace: false,
        normalize: (raw) => raw ?? [],
        validate: (c, path, siblings) => {
            const list = c.present(path);
            if (list === undefined || list === null) return undefined;
            if (!Array.isArray(list)) {
                c.fail(path, "must be a list of CIDRs");
                return undefined;
            }
            const outer = opts.within === undefined ? undefined : siblings[opts.within];
            list.forEach((_, i) => {
                const subnet = c.network(`${path}.${i}`);
                if (subnet && typeof outer === "string" && !contains(parseNetwork(outer), parseNetwork(subnet))) {
                    c.fail(`${path}.${i}`, `must lie in ${opts.within} ${outer}, got ${subnet}`);
                }
            });
            return list;
        },
    };
}

/** A group of fields (the kind's view of a model object). */
export function object<F extends Fields>(fields: F): Field<ValueOf<F>> {
    return {
        replace: false,
        fields,
        normalize: (raw) => (raw === undefined ? undefined : normalizeFields(fields, raw)),
        validate: (c, path, _siblings) => {
            validateFields(c, fields, path);
            return undefined;
        },
    };
}

/** A list of groups of fields (default empty), each checked at `<path>.<index>`. */
export function list<F extends Fields>(fields: F): Field<ValueOf<F>[]> {
    return {
        replace: false,
        normalize: (raw) => (Array.isArray(raw) ? raw.map((item) => normalizeFields(fields, item)) : (raw ?? [])),
        validate: (c, path) => {
            const items = c.present(path);
            if (items === undefined || items === null) return undefined;
            if (!Array.isArray(items)) c.fail(path, "must be a list");
            else items.forEach((_, i) => validateFields(c, fields, `${path}.${i}`));
            return items;
        },
    };
}

/** Copies the listed keys that are present (never writes undefined: outputs become protobuf Structs). */
export function copyPresent(source: unknown, keys: readonly string[]): Record<string, unknown> {
    if (source === UNKNOWN) return source as never;
    const out: Record<string, unknown> = {};
    if (typeof source !== "object" || source === null) return out;
    for (const k of keys) {
        const v = (source as Record<string, unknown>)[k];
        if (v !== undefined) out[k] = v;
    }
    return out;
}

/** The fields' values out of `raw` (a model object, inputs, or state): known parts only. */
export function normalizeFields<F extends Fields>(fields: F, raw: unknown): ValueOf<F> {
    const out = copyPresent(raw, Object.keys(fields));
    if (out === (UNKNOWN as never)) return out as never;
    for (const [name, field] of Object.entries(fields)) {
        const value = out[name] === UNKNOWN ? UNKNOWN : field.normalize(out[name]);
        if (value !== undefined) out[name] = value;
    }
    return out as ValueOf<F>;
}

/** Checks every field under `prefix` in order; a field may refer to an earlier sibling's value. */
export function validateFields(c: Checker, fields: Fields, prefix = ""): void {
    const seen: Record<string, unknown> = {};
    for (const [name, field] of Object.entries(fields)) seen[name] = field.validate(c, prefix ? `${prefix}.${name}` : name, seen);
}

/** Input paths whose change replaces the resource. */
export function replacePaths(fields: Fields, prefix = ""): string[] {
    return Object.entries(fields).flatMap(([name, field]) => {
        const path = prefix ? `${prefix}.${name}` : name;
        return [...(field.replace ? [path] : []), ...(field.fields ? replacePaths(field.fields, path) : [])];
    });
}
