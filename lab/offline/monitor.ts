// A stand-in for the Pulumi engine's ResourceMonitor and Engine gRPC services: enough for the
// SDK's program runner (`@pulumi/pulumi/cmd/run`) to run index.ts exactly as under `pulumi up`.
// Registration is delegated to a handler, which decides what "creating" a resource means
// (recording it for a preview, or carrying it out for the offline apply).
import { urnFor, type AliasSpec } from "./urn";
import { emptyPb, enginePb, engineGrpc, grpc, resourceGrpc, resourcePb, structPb } from "./sdk";

export interface Registration {
    urn: string;
    type: string;
    name: string;
    parent: string;
    custom: boolean;
    /** Inputs as the SDK serialized them (secrets still wrapped, dynamic providers carry `__provider`). */
    inputs: Record<string, unknown>;
    dependencies: string[];
    provider: string;
    deleteBeforeReplace: boolean;
    /** Whether the program set deleteBeforeReplace at all (an explicit false overrides a provider's request). */
    deleteBeforeReplaceSet: boolean;
    /** Property paths whose change must replace rather than update (resource option replaceOnChanges). */
    replaceOnChanges: string[];
    /** Property paths whose new values are set back to the old ones (resource option ignoreChanges). */
    ignoreChanges: string[];
    /** Output names to keep secret even when their inputs were not (resource option additionalSecretOutputs). */
    additionalSecretOutputs: string[];
    /** Where the resource may have been before (resource option aliases), as the SDK sent them. */
    aliases: AliasSpec[];
}

export interface RegisterResult {
    id?: string;
    outputs?: Record<string, unknown>;
}

export type RegisterHandler = (r: Registration) => Promise<RegisterResult>;

export interface LogEntry {
    severity: "debug" | "info" | "warning" | "error";
    message: string;
    urn: string;
}

export interface MonitorServer {
    address: string;
    registrations: Registration[];
    logs: LogEntry[];
    /** Outputs the program registered per URN (RegisterResourceOutputs), incl. the stack's exports. */
    outputs: Map<string, Record<string, unknown>>;
    rootUrn: () => string;
    close: () => Promise<void>;
}

const SEVERITY = ["debug", "info", "warning", "error"] as const;

function aliasSpec(a: any): AliasSpec {
    if (a.hasUrn()) return { urn: a.getUrn() };
    const s = a.getSpec();
    return {
        name: s.getName(),
        type: s.getType(),
        stack: s.getStack(),
        project: s.getProject(),
        parentUrn: s.getParenturn(),
        noParent: s.getNoparent(),
    };
}

function unimplemented(_call: unknown, cb: (e: unknown) => void) {
    cb({ code: grpc.status.UNIMPLEMENTED, message: "not supported by the offline engine" });
}

export async function startMonitor(opts: { stack: string; project: string; register: RegisterHandler }): Promise<MonitorServer> {
    const registrations: Registration[] = [];
    const logs: LogEntry[] = [];
    const outputs = new Map<string, Record<string, unknown>>();
    let root = "";

    const server = new grpc.Server();
    const monitorImpl: Record<string, unknown> = {};
    for (const method of Object.keys(resourceGrpc.ResourceMonitorService)) monitorImpl[method] = unimplemented;
    Object.assign(monitorImpl, {
        supportsFeature(call: any, cb: any) {
            // Secrets travel wrapped; resource references are off so dependencies arrive as URNs and IDs.
            const id = call.request.getId();
            cb(
                null,
                new resourcePb.SupportsFeatureResponse().setHassupport(
                    ["secrets", "outputValues", "deletedWith", "aliasSpecs"].includes(id),
                ),
            );
        },
        async registerResource(call: any, cb: any) {
            const req = call.request;
            const reg: Registration = {
                urn: urnFor(opts.stack, opts.project, req.getParent(), req.getType(), req.getName()),
                type: req.getType(),
                name: req.getName(),
                parent: req.getParent(),
                custom: req.getCustom(),
                inputs: req.getObject()?.toJavaScript() ?? {},
                dependencies: req.getDependenciesList(),
                provider: req.getProvider(),
                deleteBeforeReplace: req.getDeletebeforereplace(),
                deleteBeforeReplaceSet: req.getDeletebeforereplacedefined(),
                replaceOnChanges: req.getReplaceonchangesList(),
                ignoreChanges: req.getIgnorechangesList(),
                additionalSecretOutputs: req.getAdditionalsecretoutputsList(),
                aliases: req.getAliasesList().map(aliasSpec),
            };
            registrations.push(reg);
            try {
                // Components too: the offline apply records them in its state, as the engine does.
                const result = await opts.register(reg);
                const res = new resourcePb.RegisterResourceResponse();
                res.setUrn(reg.urn);
                if (reg.custom) res.setId(result.id ?? reg.name);
                res.setObject(structPb.Struct.fromJavaScript(result.outputs ?? reg.inputs));
                cb(null, res);
            } catch {
                // As the engine answers when a step fails: it stops the deployment and reports the step's
                // error itself; the SDK then ends the program quietly instead of dumping the RPC error.
                cb({ code: grpc.status.UNAVAILABLE, message: "resource monitor shut down while waiting on step's done channel" });
            }
        },
        registerResourceOutputs(call: any, cb: any) {
            outputs.set(call.request.getUrn(), call.request.getOutputs()?.toJavaScript() ?? {});
            cb(null, new emptyPb.Empty());
        },
    });
    server.addService(resourceGrpc.ResourceMonitorService, monitorImpl as any);

    const engineImpl: Record<string, unknown> = {};
    for (const method of Object.keys(engineGrpc.EngineService)) engineImpl[method] = unimplemented;
    Object.assign(engineImpl, {
        log(call: any, cb: any) {
            const r = call.request;
            logs.push({ severity: SEVERITY[r.getSeverity()] ?? "info", message: r.getMessage(), urn: r.getUrn() });
            cb(null, new emptyPb.Empty());
        },
        getRootResource(_call: any, cb: any) {
            cb(null, new enginePb.GetRootResourceResponse().setUrn(root));
        },
        setRootResource(call: any, cb: any) {
            root = call.request.getUrn();
            cb(null, new enginePb.SetRootResourceResponse());
        },
    });
    server.addService(engineGrpc.EngineService, engineImpl as any);

    const port = await new Promise<number>((resolve, reject) =>
        server.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (err, p) => (err ? reject(err) : resolve(p))),
    );
    return {
        address: `127.0.0.1:${port}`,
        registrations,
        logs,
        outputs,
        rootUrn: () => root,
        close: () => new Promise<void>((resolve) => server.tryShutdown(() => resolve())),
    };
}
