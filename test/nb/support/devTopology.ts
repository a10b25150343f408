// The dev stack's NB resources ready to drive as the engine does: a real NB behind a real sshd,
// the resources registered under the SDK's mocks (their `__provider` text as the engine stores
// it, the NB connection naming the SSH key's stack config key as the program does), tracked by
// name, and the SDK's dynamic-provider host started in the project root, configured with that key.
import { track, type Tracked } from "../../../lab/harness/engine";
import { devModel, GATEWAY_HOST, OWNER, startEnv, type NbEnv } from "../../../lab/harness/env";
import { startProviderHost, type ProviderHost } from "../../../lab/harness/providerHost";
import { registerUnderMocks, type Registered } from "../../../lab/harness/serializedProviders";

export interface DevTopology {
    env: NbEnv;
    host: ProviderHost;
    registered: Registered[];
    /** By resource name: `cluster-router`, `node-<node>`, `gateway-<node>`. */
    tracked: Record<string, Tracked>;
    stop(): Promise<void>;
}

export async function startDevTopology(model = devModel()): Promise<DevTopology> {
    const env = await startEnv();
    const gateway = model.gateways[0];
    const registered = await registerUnderMocks({
        model,
        owner: OWNER,
        nb: env.configured(),
        gatewayHost: { [gateway.node]: GATEWAY_HOST },
    });
    const tracked: Record<string, Tracked> = {};
    for (const reg of registered) tracked[reg.name] = track(reg);
    const host = await startProviderHost(env.providerConfig);
    return {
        env,
        host,
        registered,
        tracked,
        async stop() {
            await host.stop();
            await env.cleanup();
        },
    };
}
