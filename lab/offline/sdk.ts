// The Pulumi SDK's own gRPC stubs and protobuf runtime, loaded from the SDK's location so that
// one grpc-js instance serves both sides (two copies cannot share channels or servers).
import { createRequire } from "module";
import * as path from "path";

export const SDK_DIR = path.dirname(require.resolve("@pulumi/pulumi/package.json"));
const sdkRequire = createRequire(path.join(SDK_DIR, "package.json"));

export const grpc = sdkRequire("@grpc/grpc-js") as typeof import("@grpc/grpc-js");
export const structPb = sdkRequire("google-protobuf/google/protobuf/struct_pb") as any;
export const emptyPb = sdkRequire("google-protobuf/google/protobuf/empty_pb") as any;
export const resourcePb = sdkRequire("./proto/resource_pb") as any;
export const resourceGrpc = sdkRequire("./proto/resource_grpc_pb") as any;
export const enginePb = sdkRequire("./proto/engine_pb") as any;
export const engineGrpc = sdkRequire("./proto/engine_grpc_pb") as any;
export const providerPb = sdkRequire("./proto/provider_pb") as any;
export const providerGrpc = sdkRequire("./proto/provider_grpc_pb") as any;

/** The engine's secret marker inside property bags (sdk/nodejs/runtime/rpc.ts specialSigKey). */
export const SIG_KEY = "4dabf18193072939515e22adb298388d";
export const SECRET_SIG = "1b47061264138c4ac30d75fd1eb44270";

/** What the SDK sends for a value not known yet (a preview's outputs of what it would create). */
export const UNKNOWN_VALUE = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";

export const isSecretValue = (v: unknown): v is { value: unknown } =>
    typeof v === "object" && v !== null && (v as Record<string, unknown>)[SIG_KEY] === SECRET_SIG;

/** Strips secret wrappers (for the engine stand-in's own use, never for printing). */
export function unwrapSecrets(v: unknown): unknown {
    if (isSecretValue(v)) return unwrapSecrets(v.value);
    if (Array.isArray(v)) return v.map(unwrapSecrets);
    if (v && typeof v === "object") return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, unwrapSecrets(x)]));
    return v;
}
