// The SDK's dynamic-provider host, started and driven over gRPC the way the Pulumi engine does:
// `node <sdk>/cmd/dynamic-provider/index.js <engine address>` in the project root, its port on
// the first stdout line, then Configure → Check → Create → Diff → Update → Read → Delete with
// protobuf Structs. Like the engine with a provider that does not accept secrets, secret wrappers
// are removed before values are sent.
import * as path from "path";
import type { ProviderDiffReply } from "../offline/engineDiff";
import { grpc, providerGrpc, providerPb, SDK_DIR, structPb, unwrapSecrets } from "../offline/sdk";
import { PROJECT_ROOT } from "../projectRoot";
import { startPluginProcess } from "./pluginProcess";

export { PROJECT_ROOT };

type Props = Record<string, any>;

export interface CheckReply {
    inputs: Props;
    failures: { property: string; reason: string }[];
}

export type DiffReply = ProviderDiffReply;

export interface ProviderHost {
    check(urn: string, olds: Props, news: Props): Promise<CheckReply>;
    create(urn: string, properties: Props): Promise<{ id: string; properties: Props }>;
    diff(urn: string, id: string, olds: Props, news: Props, oldInputs: Props): Promise<DiffReply>;
    update(urn: string, id: string, olds: Props, news: Props, oldInputs: Props): Promise<Props>;
    read(urn: string, id: string, properties: Props, inputs: Props): Promise<{ id: string; properties: Props; inputs?: Props }>;
    delete(urn: string, id: string, properties: Props, oldInputs: Props): Promise<void>;
    /** What the host wrote to stderr so far (it logs failures there). */
    stderr(): string;
    stop(): Promise<void>;
    /** The host process, e.g. to read its CPU time. */
    pid: number;
}

const struct = (v: Props) => structPb.Struct.fromJavaScript(unwrapSecrets(v) as Props);

function call<Req, Res>(client: any, method: string, request: Req): Promise<Res> {
    return new Promise((resolve, reject) => client[method](request, (err: Error | null, res: Res) => (err ? reject(err) : resolve(res))));
}

/**
 * `projectDir`: the host's cwd, where the serialized providers' require() calls resolve.
 * `nodeArgs`: options for the host's node, e.g. `--cpu-prof` to profile it.
 */
export async function startProviderHost(config: Props = {}, projectDir = PROJECT_ROOT, nodeArgs: string[] = []): Promise<ProviderHost> {
    const { child, port, stderr } = await startPluginProcess(
        [...nodeArgs, path.join(SDK_DIR, "cmd/dynamic-provider/index.js"), "127.0.0.1:1"],
        projectDir,
    );
    const client = new providerGrpc.ResourceProviderClient(`127.0.0.1:${port}`, grpc.credentials.createInsecure());
    const configure = new providerPb.ConfigureRequest();
    configure.setArgs(struct(config));
    configure.setAcceptsecrets(false);
    await call(client, "configure", configure);

    return {
        async check(urn, olds, news) {
            const req = new providerPb.CheckRequest();
            req.setUrn(urn);
            req.setOlds(struct(olds));
            req.setNews(struct(news));
            const res: any = await call(client, "check", req);
            return {
                inputs: res.getInputs()?.toJavaScript() ?? {},
                failures: res.getFailuresList().map((f: any) => ({ property: f.getProperty(), reason: f.getReason() })),
            };
        },
        async create(urn, properties) {
            const req = new providerPb.CreateRequest();
            req.setUrn(urn);
            req.setProperties(struct(properties));
            const res: any = await call(client, "create", req);
            return { id: res.getId(), properties: res.getProperties().toJavaScript() };
        },
        async diff(urn, id, olds, news, oldInputs) {
            const req = new providerPb.DiffRequest();
            req.setUrn(urn);
            req.setId(id);
            req.setOlds(struct(olds));
            req.setNews(struct(news));
            req.setOldInputs(struct(oldInputs));
            const res: any = await call(client, "diff", req);
            return { changes: res.getChanges(), replaces: res.getReplacesList(), deleteBeforeReplace: res.getDeletebeforereplace() };
        },
        async update(urn, id, olds, news, oldInputs) {
            const req = new providerPb.UpdateRequest();
            req.setUrn(urn);
            req.setId(id);
            req.setOlds(struct(olds));
            req.setNews(struct(news));
            req.setOldInputs(struct(oldInputs));
            const res: any = await call(client, "update", req);
            return res.getProperties().toJavaScript();
        },
        async read(urn, id, properties, inputs) {
            const req = new providerPb.ReadRequest();
            req.setUrn(urn);
            req.setId(id);
            req.setProperties(struct(properties));
            req.setInputs(struct(inputs));
            const res: any = await call(client, "read", req);
            return { id: res.getId(), properties: res.getProperties()?.toJavaScript() ?? {}, inputs: res.getInputs()?.toJavaScript() };
        },
        async delete(urn, id, properties, oldInputs) {
            const req = new providerPb.DeleteRequest();
            req.setUrn(urn);
            req.setId(id);
            req.setProperties(struct(properties));
            req.setOldInputs(struct(oldInputs));
            await call(client, "delete", req);
        },
        stderr,
        pid: child.pid!,
        async stop() {
            client.close();
            if (child.exitCode !== null) return;
            await new Promise<void>((resolve) => {
                child.once("exit", () => resolve());
                child.kill("SIGTERM");
            });
        },
    };
}
