// The package as the engine runs a component provider: `node <sdk>/cmd/run-plugin <package dir>
// <engine address>` (what the Node language host starts for a PulumiPlugin.yaml with runtime
// nodejs), its port on the first stdout line, then GetSchema and Construct over gRPC. Construct
// registers the component's children with the resource monitor it names: the offline engine's.
import * as path from "node:path";
import { startMonitor, type MonitorServer } from "../../../lab/offline/monitor";
import { grpc, providerGrpc, providerPb, SDK_DIR, structPb } from "../../../lab/offline/sdk";
import { ROOT } from "../../../lab/harness/configs";
import { startPluginProcess } from "../../../lab/harness/pluginProcess";

export const PACKAGE_DIR = path.join(ROOT, "components");
/** The provider's name as the SDK derives it from the package's npm name (@ovn-kubernetes-as-code/cluster). */
export const PROVIDER_NAME = "cluster";
export const COMPONENT_TYPE = `${PROVIDER_NAME}:index:OvnKubernetesCluster`;

export interface ConstructOutcome {
    /** The component's outputs, or the error the provider answered with. */
    state?: Record<string, unknown>;
    error?: string;
    monitor: MonitorServer;
}

export interface ComponentHost {
    schema(): Promise<any>;
    construct(name: string, inputs: Record<string, unknown>, at: { project: string; stack: string }): Promise<ConstructOutcome>;
    stderr(): string;
    stop(): Promise<void>;
}

function call<Res>(client: any, method: string, request: unknown): Promise<Res> {
    return new Promise((resolve, reject) => client[method](request, (err: Error | null, res: Res) => (err ? reject(err) : resolve(res))));
}

export async function startComponentHost(): Promise<ComponentHost> {
    // The engine address: the provider sends its log lines there (the offline engine's Engine service).
    const engine = await startMonitor({ stack: "engine", project: "engine", register: async () => ({}) });
    // The plugin must not inherit a test runner's loader hooks.
    const plugin = await startPluginProcess([path.join(SDK_DIR, "cmd", "run-plugin"), PACKAGE_DIR, engine.address], PACKAGE_DIR, {
        ...process.env,
        NODE_OPTIONS: "",
    });
    const { child } = plugin;
    const client = new providerGrpc.ResourceProviderClient(`127.0.0.1:${plugin.port}`, grpc.credentials.createInsecure());
    return {
        async schema() {
            const res: any = await call(client, "getSchema", new providerPb.GetSchemaRequest());
            return JSON.parse(res.getSchema());
        },
        async construct(name, inputs, at) {
            const monitor = await startMonitor({ stack: at.stack, project: at.project, register: async () => ({}) });
            const req = new providerPb.ConstructRequest();
            req.setProject(at.project);
            req.setStack(at.stack);
            req.setOrganization("organization");
            req.setDryrun(true);
            req.setParallel(16);
            req.setMonitorendpoint(monitor.address);
            req.setType(COMPONENT_TYPE);
            req.setName(name);
            req.setParent(`urn:pulumi:${at.stack}::${at.project}::pulumi:pulumi:Stack::${at.project}-${at.stack}`);
            req.setInputs(structPb.Struct.fromJavaScript(inputs));
            req.setAcceptsOutputValues(true);
            try {
                const res: any = await call(client, "construct", req);
                return { state: res.getState()?.toJavaScript() ?? {}, monitor };
            } catch (e) {
                return { error: (e as { details?: string }).details ?? String(e), monitor };
            } finally {
                await monitor.close();
            }
        },
        stderr: plugin.stderr,
        async stop() {
            client.close();
            child.kill();
            await new Promise((resolve) => (child.exitCode === null ? child.once("exit", resolve) : resolve(undefined)));
            await engine.close();
        },
    };
}
