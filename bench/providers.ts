// The providers' create path as the engine runs it, in this process: the serialized provider
// text the engine would store (obtained by registering the resources under the SDK's mocks) is
// loaded the way the dynamic-provider host loads it (require-from-string), then each resource
// gets `check` and `create`, at most `parallel` at a time (the engine's --parallel).
// In-process rather than through the gRPC host: the host adds ~1 ms of gRPC per call and nothing
// to the NB path; every transaction still goes over one pooled SSH connection.
import { createRequire } from "module";
import * as path from "path";
import type * as pulumi from "@pulumi/pulumi";
import { NB_KINDS } from "@ovn-kubernetes-as-code/cluster/nb";
import { SDK_DIR } from "@ovn-kubernetes-as-code/lab/offline";
import { devModel, registerUnderMocks } from "@ovn-kubernetes-as-code/lab/harness";
import type { Resource } from "./topology";

type Provider = pulumi.dynamic.ResourceProvider;

/** One loaded provider per resource type, from the text the engine would keep in state. */
export async function loadProviders(): Promise<Record<Resource["type"], Provider>> {
    const model = devModel();
    const stand = {
        ssh: { host: "127.0.0.1", port: 22, user: "root", insecureIgnoreHostKey: true },
        privateKey: "unused",
        socket: "/unused",
    };
    const registered = await registerUnderMocks({
        model,
        owner: "bench/bench",
        nb: stand,
        gatewayHost: { [model.gateways[0].node]: { systemId: "x", macAddress: "52:54:00:00:00:01" } },
    });
    const requireFromString = createRequire(path.join(SDK_DIR, "package.json"))("require-from-string") as (code: string) => {
        handler: () => Provider;
    };
    // The kinds the stand-in model registers (a kind it has no instance of, such as a VTEP gateway, has no provider here).
    const provided = Object.keys(NB_KINDS).flatMap((t) => {
        const r = registered.find((x) => x.type.endsWith(`:${t}`));
        return r ? [[t, requireFromString(r.inputs.__provider).handler()] as const] : [];
    });
    return Object.fromEntries(provided) as Record<Resource["type"], Provider>;
}

async function checkAndCreate(provider: Provider, news: Record<string, unknown>): Promise<void> {
    const { inputs, failures } = await provider.check!({}, news);
    if (failures && failures.length > 0) throw new Error(`check failed: ${JSON.stringify(failures)}`);
    await provider.create(inputs);
}

export async function createAll(
    providers: Record<Resource["type"], Provider>,
    common: Record<string, unknown>,
    topology: { router: Resource; rest: Resource[] },
    parallel: number,
): Promise<void> {
    await checkAndCreate(providers.ClusterRouter, { ...common, ...topology.router.inputs });
    let next = 0;
    const worker = async () => {
        while (next < topology.rest.length) {
            const r = topology.rest[next++];
            await checkAndCreate(providers[r.type], { ...common, ...r.inputs });
        }
    };
    await Promise.all(Array.from({ length: parallel }, worker));
}
