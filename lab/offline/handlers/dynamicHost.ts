// The process the engine starts for dynamic providers (the SDK's cmd/dynamic-provider), driven
// over gRPC as the engine drives it. One host serves every dynamic resource of an operation: it
// deserializes each resource's `__provider` text once and keeps it. Property bags cross as
// protobuf Structs, which cannot carry undefined, hence structSafe everywhere.
import { spawn, type ChildProcess } from "node:child_process";
import * as path from "node:path";
import { grpc, providerGrpc, providerPb, SDK_DIR, structPb } from "../sdk";
import type { ProviderDiffReply } from "../engineDiff";
import { structSafe, type Props } from "../values";

const STDERR_KEEP = 8000;

export interface CheckResult {
    inputs: Props;
    failures: { property: string; reason: string }[];
}

export type ProviderDiff = ProviderDiffReply;

const toStruct = (p: Props) => structPb.Struct.fromJavaScript(structSafe(p));

export class DynamicProviderHost {
    private constructor(
        private readonly child: ChildProcess,
        private readonly client: any,
        private readonly stderr: () => string,
    ) {}

    /** Starts the host with the project's directory as cwd (its serialized code require()s from there) and configures it. */
    static async start(projectDir: string, env: Record<string, string>, config: Record<string, string>): Promise<DynamicProviderHost> {
        const child = spawn(process.execPath, [path.join(SDK_DIR, "cmd", "dynamic-provider", "index.js"), "127.0.0.1:1"], {
            cwd: projectDir,
            env: { ...process.env, ...env, NODE_OPTIONS: "" },
            stdio: ["ignore", "pipe", "pipe"],
        });
        let stderr = "";
        child.stderr!.on("data", (d) => (stderr = (stderr + d).slice(-STDERR_KEEP)));
        const port = await new Promise<string>((resolve, reject) => {
            let out = "";
            child.stdout!.on("data", (d) => {
                out += d;
                const line = out.split("\n")[0];
                if (out.includes("\n")) resolve(line.trim());
            });
            child.on("exit", (code) => reject(new Error(`dynamic provider host exited with ${code} before listening: ${stderr.trim()}`)));
        });
        const client = new providerGrpc.ResourceProviderClient(`127.0.0.1:${port}`, grpc.credentials.createInsecure());
        const host = new DynamicProviderHost(child, client, () => stderr);
        // The engine configures a provider once with the stack's config and no secret support:
        // it then unwraps secrets before every call and re-marks outputs itself.
        await host.call(
            "configure",
            new providerPb.ConfigureRequest().setArgs(toStruct(config)).setAcceptsecrets(false).setAcceptresources(false),
        );
        return host;
    }

    private call(method: string, req: unknown): Promise<any> {
        return new Promise((resolve, reject) =>
            this.client[method](req, (err: any, res: any) => {
                if (!err) return resolve(res);
                // The provider's own message (gRPC details); the host's stderr only when there is none.
                const detail = err.details || err.message || this.stderr().trim();
                reject(new Error(`${method}: ${detail}`));
            }),
        );
    }

    async check(urn: string, olds: Props, news: Props): Promise<CheckResult> {
        const res = await this.call("check", new providerPb.CheckRequest().setUrn(urn).setOlds(toStruct(olds)).setNews(toStruct(news)));
        return {
            inputs: res.getInputs()?.toJavaScript() ?? {},
            failures: res.getFailuresList().map((f: any) => ({ property: f.getProperty(), reason: f.getReason() })),
        };
    }

    async diff(urn: string, id: string, olds: Props, news: Props, oldInputs: Props): Promise<ProviderDiff> {
        const req = new providerPb.DiffRequest()
            .setUrn(urn)
            .setId(id)
            .setOlds(toStruct(olds))
            .setNews(toStruct(news))
            .setOldInputs(toStruct(oldInputs));
        const res = await this.call("diff", req);
        return { changes: res.getChanges(), replaces: res.getReplacesList(), deleteBeforeReplace: res.getDeletebeforereplace() };
    }

    async create(urn: string, props: Props): Promise<{ id: string; outputs: Props }> {
        const res = await this.call("create", new providerPb.CreateRequest().setUrn(urn).setProperties(toStruct(props)));
        return { id: res.getId(), outputs: res.getProperties()?.toJavaScript() ?? {} };
    }

    async update(urn: string, id: string, olds: Props, news: Props, oldInputs: Props): Promise<Props> {
        const req = new providerPb.UpdateRequest()
            .setUrn(urn)
            .setId(id)
            .setOlds(toStruct(olds))
            .setNews(toStruct(news))
            .setOldInputs(toStruct(oldInputs));
        const res = await this.call("update", req);
        return res.getProperties()?.toJavaScript() ?? {};
    }

    /** `inputs` only when the provider returned them (it may, to be diffed against next time). */
    async read(urn: string, id: string, props: Props, inputs: Props): Promise<{ id: string; outputs: Props; inputs?: Props }> {
        const req = new providerPb.ReadRequest().setUrn(urn).setId(id).setProperties(toStruct(props)).setInputs(toStruct(inputs));
        const res = await this.call("read", req);
        const returned = res.getInputs()?.toJavaScript();
        return { id: res.getId(), outputs: res.getProperties()?.toJavaScript() ?? {}, ...(returned ? { inputs: returned } : {}) };
    }

    async delete(urn: string, id: string, props: Props): Promise<void> {
        await this.call("delete", new providerPb.DeleteRequest().setUrn(urn).setId(id).setProperties(toStruct(props)));
    }

    async close(): Promise<void> {
        this.client.close();
        if (this.child.exitCode !== null || this.child.signalCode !== null) return;
        const exited = new Promise<void>((resolve) => this.child.once("exit", () => resolve()));
        this.child.kill("SIGTERM");
        await exited;
    }
}
