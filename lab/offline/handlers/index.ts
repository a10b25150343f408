// Which handler carries out which resource type, and the one dynamic provider host an operation
// shares (started on first use: it costs about 1.4 s, and a stack may have no dynamic resource).
import { commandHandler } from "./command";
import { dynamicHandler } from "./dynamic";
import { DynamicProviderHost } from "./dynamicHost";
import { KubeTargets } from "../kubeTarget";
import type { StateResource } from "../state";
import { kubernetesHandler } from "./kubernetes";
import { isProviderType, providerHandler, ProviderInputs } from "./providers";
import { recordedHandler } from "./recorded";
import type { HandlerContext, ResourceHandler } from "./types";

export class Handlers {
    private host?: Promise<DynamicProviderHost>;
    private readonly command: ResourceHandler;
    private readonly dynamic: ResourceHandler;
    private readonly kubernetes: ResourceHandler;
    private readonly recorded = recordedHandler();
    private readonly provider: ResourceHandler;
    private readonly kubeTargets = new KubeTargets();

    /** `resources`: the stack's state, where providers are found for resources the program does not register again. */
    constructor(ctx: HandlerContext, resources: readonly StateResource[] = []) {
        const providers = new ProviderInputs(resources);
        this.provider = providerHandler(providers);
        this.command = commandHandler(ctx);
        this.kubernetes = kubernetesHandler(ctx, providers, this.kubeTargets);
        this.dynamic = dynamicHandler(() => this.dynamicHost(ctx));
        // A stack that has dynamic resources will need the host: start it now, while the program
        // loads, rather than when its first dynamic resource registers.
        if (resources.some((r) => r.type.startsWith("pulumi-nodejs:dynamic"))) this.dynamicHost(ctx).catch(() => undefined);
    }

    private dynamicHost(ctx: HandlerContext): Promise<DynamicProviderHost> {
        const env = { PULUMI_NODEJS_PROJECT: ctx.project, PULUMI_NODEJS_STACK: ctx.stack };
        this.host ??= DynamicProviderHost.start(ctx.projectDir, env, ctx.config).then((host) => {
            ctx.profile?.reached("dynamic provider host: started and configured");
            return host;
        });
        return this.host;
    }

    for(type: string, custom: boolean): ResourceHandler {
        if (isProviderType(type)) return this.provider;
        if (!custom) return this.recorded;
        if (type === "command:remote:Command") return this.command;
        if (type.startsWith("pulumi-nodejs:dynamic")) return this.dynamic;
        if (type.startsWith("kubernetes:")) return this.kubernetes;
        throw new Error("the offline apply has no handler for this resource type (use pulumi up)");
    }

    async close(): Promise<void> {
        this.kubeTargets.close();
        const host = this.host;
        this.host = undefined;
        if (host) await (await host.catch(() => undefined))?.close();
    }
}
