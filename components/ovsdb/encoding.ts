// OVSDB's JSON encoding of values (RFC 7047 section 5.1), typed, with builders and decoders.
//
// An atom is a JSON string, number or boolean, or a tagged array ["uuid", u] / ["named-uuid", n].
// A set is ["set", [atoms]] but a set of exactly one element may be sent, and is often returned,
// as the bare atom; a map is ["map", [[key, value], ...]]. Decoders accept every form the server
// may use; builders always produce the explicit tagged form, which is never ambiguous.

export type Uuid = ["uuid", string];
export type NamedUuid = ["named-uuid", string];
export type Atom = string | number | boolean | Uuid | NamedUuid;
export type OvsdbSet = ["set", Atom[]];
export type OvsdbMap = ["map", [Atom, Atom][]];
export type Value = Atom | OvsdbSet | OvsdbMap;
/** A row as sent in insert/update and returned by select: column name to value. */
export type Row = Record<string, Value>;

/** A row UUID as the server prints it, e.g. 907b1f49-7f6f-4784-9913-43c19257521e. */
export function isUuidString(text: string): boolean {
    return /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(text);
}

export function uuid(id: string): Uuid {
    if (!isUuidString(id)) throw new Error(`not a UUID: ${JSON.stringify(id)}`);
    return ["uuid", id];
}

/**
 * A reference to a row inserted earlier in the same transaction by its "uuid-name".
 * RFC 7047 restricts names to <id>: a letter or underscore, then letters, digits, underscores.
 */
export function namedUuid(name: string): NamedUuid {
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) {
        throw new Error(`not a valid uuid-name (letters, digits, "_"; not starting with a digit): ${JSON.stringify(name)}`);
    }
    return ["named-uuid", name];
}

export function set(atoms: readonly Atom[]): OvsdbSet {
    return ["set", [...atoms]];
}

/** A map from a plain object (string keys, as external_ids/options are) or from [key, value] pairs. */
export function map(entries: Readonly<Record<string, Atom>> | readonly (readonly [Atom, Atom])[]): OvsdbMap {
    const pairs = Array.isArray(entries) ? entries : Object.entries(entries);
    return ["map", pairs.map(([k, v]) => [k, v] as [Atom, Atom])];
}

export function isUuid(value: unknown): value is Uuid {
    return Array.isArray(value) && value.length === 2 && value[0] === "uuid" && typeof value[1] === "string";
}

function isTagged(value: unknown, tag: "set" | "map"): boolean {
    return Array.isArray(value) && value.length === 2 && value[0] === tag && Array.isArray(value[1]);
}

/** The elements of a set column, whether the server sent ["set", [...]] or a bare single atom. */
export function setAtoms(value: Value | undefined): Atom[] {
    if (value === undefined) return [];
    if (isTagged(value, "set")) return [...(value as OvsdbSet)[1]];
    if (isTagged(value, "map")) throw new Error("expected an OVSDB set, got a map");
    return [value as Atom];
}

/** The value of an optional column (a set of at most one element), or undefined when empty. */
export function optionalAtom(value: Value | undefined): Atom | undefined {
    const atoms = setAtoms(value);
    if (atoms.length > 1) throw new Error(`expected at most one element, got ${atoms.length}`);
    return atoms[0];
}

export function mapPairs(value: Value | undefined): [Atom, Atom][] {
    if (value === undefined) return [];
    if (!isTagged(value, "map")) throw new Error(`expected an OVSDB map, got ${JSON.stringify(value)}`);
    return (value as OvsdbMap)[1].map(([k, v]) => [k, v] as [Atom, Atom]);
}

/** A string-to-string map column (external_ids, options, other_config) as a plain object. */
export function mapToRecord(value: Value | undefined): Record<string, string> {
    const record: Record<string, string> = {};
    for (const [k, v] of mapPairs(value)) {
        if (typeof k !== "string" || typeof v !== "string") {
            throw new Error(`expected a string-to-string map, got entry ${JSON.stringify([k, v])}`);
        }
        record[k] = v;
    }
    return record;
}

/** The UUID text of a ["uuid", u] value (e.g. `_uuid` of a selected row or an insert result). */
export function uuidText(value: Value | undefined): string {
    if (!isUuid(value)) throw new Error(`expected ["uuid", <uuid>], got ${JSON.stringify(value)}`);
    return value[1];
}

/** The UUID texts of a set-of-references column (ports, static_routes, nat, ...). */
export function uuidTexts(value: Value | undefined): string[] {
    return setAtoms(value).map((atom) => uuidText(atom));
}
