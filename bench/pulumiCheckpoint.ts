// A stack's resources in the shape Pulumi's file backend writes its checkpoint
// (sdk/go/common/apitype/core.go: VersionedCheckpoint, CheckpointV3, DeploymentV3, ResourceV3,
// fields in that struct's order, empty ones left out as `omitempty` does) and with either of its
// layouts: four-space indentation before Pulumi 3.238.0 (sdk/go/common/encoding/marshal.go), minified
// since (pkg/backend/diy/state.go, compactJSONMarshaler). What the engine adds to a
// registration is here too: the default provider's reference for a custom resource that names
// none, and a `created`/`modified` time each.
import type { Recorded } from "@ovn-kubernetes-as-code/lab/harness";

export const PROJECT = "ovn-kubernetes";
/** A resource's nesting in the file: checkpoint → latest → resources → [i]. */
export const RESOURCE_DEPTH = 4;
const TIME = "2026-11-27T00:00:00.000000000Z";
/** The engine's default providers' IDs are UUIDs. */
const PROVIDER_ID = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";

/** The reference the engine records for a custom resource registered without a provider. */
function defaultProvider(stack: string, type: string): string {
    const pkg = type.startsWith("pulumi-nodejs:") ? "pulumi-nodejs" : type.split(":")[0];
    const version = pkg === "pulumi-nodejs" ? "" : `_${require(`@pulumi/${pkg}/package.json`).version.replace(/\./g, "_")}`;
    return `urn:pulumi:${stack}::${PROJECT}::pulumi:providers:${pkg}::default${version}::${PROVIDER_ID}`;
}

const some = <T>(xs: T[] | undefined): T[] | undefined => (xs && xs.length > 0 ? xs : undefined);

/**
 * The checkpoint of `recorded` (the program's registrations under the mocks), with `sealed` the
 * same resources' inputs and outputs, secrets sealed, in the same order.
 */
export function pulumiCheckpoint(
    stack: string,
    projectDir: string,
    recorded: Recorded[],
    sealed: Array<{ inputs: object; outputs: object }>,
) {
    // The mock monitor qualifies a type with its parent's own type only; the engine with the whole
    // chain of ancestors below the stack.
    const byMockUrn = new Map(recorded.map((r) => [r.registration!.urn, r]));
    const qualified = new Map<string, string>();
    const qualifiedType = (r: Recorded): string => {
        const parent = byMockUrn.get(r.registration!.parentUrn);
        return parent && parent.type !== "pulumi:pulumi:Stack" ? `${qualifiedType(parent)}$${r.type}` : r.type;
    };
    for (const r of recorded) qualified.set(r.registration!.urn, `urn:pulumi:${stack}::${PROJECT}::${qualifiedType(r)}::${r.name}`);
    const urn = (mock: string) => qualified.get(mock) ?? mock;
    const resources = recorded.map((r, i) => {
        const g = r.registration!;
        const deps = Object.fromEntries(
            Object.entries(g.propertyDependencies)
                .filter(([, urns]) => urns.length > 0)
                .map(([k, urns]) => [k, urns.map(urn)]),
        );
        return {
            urn: urn(g.urn),
            custom: g.custom,
            id: g.custom ? `${r.name}-id` : undefined,
            type: r.type,
            inputs: sealed[i].inputs,
            outputs: sealed[i].outputs,
            parent: g.parentUrn ? urn(g.parentUrn) : undefined,
            dependencies: some(g.dependencies.map(urn)),
            provider: g.custom ? g.provider || defaultProvider(stack, r.type) : undefined,
            propertyDependencies: Object.keys(deps).length > 0 ? deps : undefined,
            additionalSecretOutputs: some(g.additionalSecretOutputs),
            created: TIME,
            modified: TIME,
            // The engine records a position inside the project relative to it.
            sourcePosition: g.sourcePosition?.replace(`file://${projectDir}/`, "project:///"),
            replaceOnChanges: some(g.replaceOnChanges),
        };
    });
    return {
        version: 3,
        checkpoint: {
            stack,
            latest: {
                manifest: { time: TIME, magic: "", version: "v3.200.0" },
                secrets_providers: {
                    type: "passphrase",
                    state: { salt: "v1:0000000000000000:v1:0000000000000000000000:00000000000000000000000000000000" },
                },
                resources,
            },
        },
    };
}

/** JSON as Pulumi's file backend wrote it before 3.238.0, indented as if nested `depth` levels deep. */
export function pulumiJson(value: unknown, depth = 0): string {
    const pad = " ".repeat(4 * depth);
    return JSON.stringify(value, null, 4).split("\n").join(`\n${pad}`) + (depth === 0 ? "\n" : "");
}

/**
 * JSON as the file backend writes it since 3.238.0: Go's encoder without HTML escaping, the
 * trailing newline trimmed (pulumi pkg/backend/diy/state.go, compactJSONMarshaler.Marshal).
 */
export const minifiedJson = (value: unknown): string => JSON.stringify(value);
