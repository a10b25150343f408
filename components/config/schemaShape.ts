// The JSON Schema (./schema.ts) and the types (./types.ts) describe one configuration: this file
// makes the compiler refuse them when they disagree on a key, on whether it may be left out, or on
// its value's type (enumerations by their values). Hand-written rather than ajv's
// JSONSchemaType<T>, which asks `nullable: true` of every optional key (and so lets null through
// validation) and a `type` beside every enum; and the types stay interfaces with a description on
// each key, the form the component provider's schema is inferred from.
// Both sides become flat unions of "path: kind" lines (e.g. "nodes[].gateway.mode: shared",
// "mtu?: number"), so a difference is named by its line at any depth: the compiler gives up on
// deeply nested object comparisons, not on unions of strings.
import type { stackConfigSchema } from "./schema";
import type { SecretValue, StackConfigInput } from "./types";

type Child<
    P extends string,
    K extends string,
    Optional extends boolean,
> = `${P}${P extends "" ? "" : "."}${K}${Optional extends true ? "?" : ""}`;

/** A schema's lines. Its one union (oneOf) is the secret: a value or a `{secure}` marker. */
export type SchemaLines<S, P extends string = ""> = S extends { oneOf: unknown }
    ? `${P}: secret`
    : S extends { type: "object"; properties: infer Props }
      ? {
            [K in keyof Props & string]: SchemaLines<
                Props[K],
                Child<P, K, K extends (S extends { required: readonly (infer R)[] } ? R : never) ? false : true>
            >;
        }[keyof Props & string]
      : S extends { type: "array"; items: infer I }
        ? SchemaLines<I, `${P}[]`>
        : S extends { enum: readonly (infer E extends string)[] }
          ? `${P}: ${E}`
          : S extends { type: "string" }
            ? `${P}: string`
            : S extends { type: "integer" | "number" }
              ? `${P}: number`
              : S extends { type: "boolean" }
                ? `${P}: boolean`
                : `${P}: a schema without a type`;

/** Keys of T that may be left out. */
type OptionalKeys<T> = { [K in keyof T]-?: object extends Pick<T, K> ? K : never }[keyof T];

/** A type's lines, in the schema's terms. */
export type TypeLines<T, P extends string = ""> = [SecretValue] extends [T]
    ? `${P}: secret`
    : [T] extends [readonly (infer I)[]]
      ? TypeLines<I, `${P}[]`>
      : [T] extends [boolean]
        ? `${P}: boolean`
        : [T] extends [number]
          ? `${P}: number`
          : [T] extends [string]
            ? string extends T
                ? `${P}: string`
                : `${P}: ${T}`
            : { [K in keyof T & string]-?: TypeLines<NonNullable<T[K]>, Child<P, K, K extends OptionalKeys<T> ? true : false>> }[keyof T &
                  string];

/** Compiles only when A is assignable to B: checked both ways, a line on one side alone is named. */
export type Fits<A extends B, B> = A;

export type StackConfigSchemaMatchesTypes = [
    Fits<SchemaLines<typeof stackConfigSchema>, TypeLines<StackConfigInput>>,
    Fits<TypeLines<StackConfigInput>, SchemaLines<typeof stackConfigSchema>>,
];
