// What the rules share: which stack a resource belongs to, whether that stack is marked
// production, and a rule's settings with its schema's defaults filled in.
import type { PolicyConfigSchema, ResourceValidationArgs } from "@pulumi/policy";

/** `urn:pulumi:<stack>::<project>::<type>::<name>` → `<stack>`. */
export const stackOf = (urn: string): string => urn.split(":")[2]?.split("::")[0] ?? "";

/**
 * How a stack is marked production: its name matches `productionStacks` (regular expressions), or
 * it carries a stack tag from `productionTags` (`pulumi stack tag set environment production`).
 * Both are part of every production-scoped rule's configuration.
 */
export const productionSettings: PolicyConfigSchema = {
    properties: {
        productionStacks: {
            type: "array",
            items: { type: "string" },
            default: ["^prod"],
            description: "regular expressions: a stack whose name matches one is production",
        },
        productionTags: {
            type: "object",
            additionalProperties: { type: "string" },
            default: { environment: "production" },
            description: "stack tags: a stack carrying one of these tag values is production",
        },
    },
};

interface ProductionConfig {
    productionStacks: string[];
    productionTags: Record<string, string>;
}

/** Whether the resource's stack is marked production under the rule's settings (productionSettings). */
export function inProduction(args: Pick<ResourceValidationArgs, "urn" | "stackTags" | "getConfig">): boolean {
    const config = settingsOf<ProductionConfig>(productionSettings, args.getConfig());
    const stack = stackOf(args.urn);
    return (
        config.productionStacks.some((p) => new RegExp(p).test(stack)) ||
        Object.entries(config.productionTags).some(([k, v]) => args.stackTags.get(k) === v)
    );
}

/** The rule's settings as given, over its schema's defaults: the same settings whether or not the engine filled them in. */
export function settingsOf<T>(schema: PolicyConfigSchema | undefined, given: object): T {
    const defaults = Object.fromEntries(
        Object.entries(schema?.properties ?? {}).flatMap(([k, s]) => ("default" in s ? [[k, s.default]] : [])),
    );
    return { ...defaults, ...given } as T;
}

/** Every string anywhere in a resource's inputs, with its property path. */
export function* strings(value: unknown, path = ""): Generator<[string, string]> {
    if (typeof value === "string") yield [path, value];
    else if (Array.isArray(value)) for (const [i, v] of value.entries()) yield* strings(v, `${path}[${i}]`);
    else if (value && typeof value === "object") for (const [k, v] of Object.entries(value)) yield* strings(v, path ? `${path}.${k}` : k);
}

/**
 * A variable a host script assigns in its header (`name='value'`, as components/hosts/scripts/shell
 * writes every value), unquoted; undefined when the script does not assign it.
 */
export function scriptVar(script: unknown, name: string): string | undefined {
    if (typeof script !== "string") return undefined;
    const m = new RegExp(`^${name}=('(?:[^']|'\\\\'')*')$`, "m").exec(script);
    return m ? m[1].slice(1, -1).replace(/'\\''/g, "'") : undefined;
}

/** The Kubernetes object's kind/name for messages, e.g. `DaemonSet/ovnkube-node`. */
export const objectName = (props: Record<string, any>): string => `${props.kind ?? "object"}/${props.metadata?.name ?? "?"}`;
