// Reading a Pulumi package schema: property lookups through `$ref`s and arrays, and what an
// example program names that the schema lacks.

type Property = { type?: string; $ref?: string; items?: Property; description?: string; additionalProperties?: Property };
type ObjectType = { properties?: Record<string, Property>; enum?: { name: string; value: unknown }[] };
export interface PackageSchema {
    resources: Record<string, { inputProperties: Record<string, Property>; properties: Record<string, Property> }>;
    types: Record<string, ObjectType>;
}

/** The type a `#/types/<token>` reference names. */
export const refType = (schema: PackageSchema, ref: string): ObjectType | undefined =>
    schema.types[decodeURIComponent(ref.replace(/^#\/types\//, ""))];

/** Every property in the schema, its path and definition: the resources' inputs and outputs, and each type's properties. */
export function allProperties(schema: PackageSchema): { path: string; property: Property }[] {
    const props: { path: string; property: Property }[] = [];
    for (const [token, r] of Object.entries(schema.resources)) {
        for (const [k, p] of Object.entries(r.inputProperties)) props.push({ path: `${token} input ${k}`, property: p });
        for (const [k, p] of Object.entries(r.properties)) props.push({ path: `${token} output ${k}`, property: p });
    }
    for (const [token, t] of Object.entries(schema.types))
        for (const [k, p] of Object.entries(t.properties ?? {})) props.push({ path: `${token}.${k}`, property: p });
    return props;
}

/** Paths in `value` (plain data, as a YAML program writes it) that the property set `props` does not declare, or enums it does not list. */
export function undeclared(schema: PackageSchema, props: Record<string, Property>, value: Record<string, unknown>, at = ""): string[] {
    const out: string[] = [];
    for (const [k, v] of Object.entries(value)) {
        const p = props[k];
        if (!p) out.push(`${at}${k}`);
        else out.push(...undeclaredValue(schema, p, v, `${at}${k}`));
    }
    return out;
}

function undeclaredValue(schema: PackageSchema, p: Property, v: unknown, at: string): string[] {
    if (p.type === "array" && Array.isArray(v)) return v.flatMap((x, i) => undeclaredValue(schema, p.items!, x, `${at}[${i}]`));
    if (!p.$ref?.startsWith("#/types/")) return [];
    const t = refType(schema, p.$ref);
    if (!t) return [`${at} (type ${p.$ref} missing)`];
    if (t.enum) return t.enum.some((e) => e.value === v) ? [] : [`${at} = ${JSON.stringify(v)}`];
    return v && typeof v === "object" ? undeclared(schema, t.properties ?? {}, v as Record<string, unknown>, `${at}.`) : [];
}
