// State benchmark (prints figures, times nothing): what the NB resources of a 100- and a 500-node
// stack put in the checkpoint. The resources are registered under the SDK's mocks (inputs and
// `__provider` as the SDK sends them to the engine), created through the SDK's dynamic-provider host over
// gRPC against a real NB behind a real sshd (outputs), and measured as a checkpoint stores them,
// secrets sealed (lab/harness/stateSize.ts). Beside each figure, the same state with the whole
// provider serialized by value, as before the stubs.
//
//   node --import tsx bench/state.ts [N]     (default 500; the 100-node figure is its first 100 nodes)
import { serializeFunction } from "@pulumi/pulumi/runtime/closure/serializeClosure";
import { NB_KIND_LIST } from "@ovn-kubernetes-as-code/cluster/nb";
import { nbProviderImplementation } from "@ovn-kubernetes-as-code/cluster/nb";
import {
    track,
    up,
    type Tracked,
    OWNER,
    startEnv,
    startProviderHost,
    gatewayHosts,
    nodeName,
    scaleModel,
    registerUnderMocks,
    stateBytes,
    type StateBytes,
} from "@ovn-kubernetes-as-code/lab/harness";

const PARALLEL = 16;
const kB = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
const MB = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(2)} MB`;

/** The provider text of each kind as the code before the stubs stored it: the implementation by value. */
async function byValueText(): Promise<Record<string, number>> {
    const out: Record<string, number> = {};
    for (const kind of NB_KIND_LIST) {
        const impl = nbProviderImplementation(kind);
        out[kind.type] = JSON.stringify((await serializeFunction(() => impl, { allowSecrets: true })).text).length;
    }
    return out;
}

async function main(): Promise<void> {
    const nodes = Number(process.argv[2] ?? 500);
    const env = await startEnv();
    const model = scaleModel(nodes, 3);
    const registered = await registerUnderMocks({ model, owner: OWNER, nb: env.configured(), gatewayHost: gatewayHosts(model) });
    const tracked = registered.map(track);
    const host = await startProviderHost(env.providerConfig);
    try {
        await up(host, tracked[0]);
        for (let next = 1; next < tracked.length;) {
            const batch = tracked.slice(next, next + PARALLEL);
            next += batch.length;
            await Promise.all(batch.map((t) => up(host, t)));
        }
        const sizes = stateBytes(tracked);
        const before = await byValueText();
        const typeOf = (t: Tracked) =>
            registered
                .find((r) => r.name === t.name)!
                .type.split(":")
                .pop()!;
        const beforeBytes = (t: Tracked, s: StateBytes) => s.total - s.provider + 2 * before[typeOf(t)];

        console.log(`state of the NB resources (inputs + outputs, secrets sealed); before: the provider by value`);
        for (const type of NB_KIND_LIST.map((k) => k.type)) {
            const of = tracked.map((t, i) => [t, sizes[i]] as const).filter(([t]) => typeOf(t) === type);
            const mean = (f: (t: Tracked, s: StateBytes) => number) => of.reduce((a, [t, s]) => a + f(t, s), 0) / of.length;
            console.log(
                `  ${type.padEnd(14)} per resource ${kB(mean((_, s) => s.total)).padStart(8)} (provider stubs ${kB(mean((_, s) => s.provider))}); before ${kB(mean(beforeBytes))}`,
            );
        }
        for (const n of [100, nodes].filter((n, i, a) => n <= nodes && a.indexOf(n) === i)) {
            const within = (t: Tracked) => !/node-\d+$/.test(t.name) || t.name.slice(t.name.lastIndexOf("node-")) <= nodeName(n);
            const picked = tracked.map((t, i) => [t, sizes[i]] as const).filter(([t]) => within(t));
            const now = picked.reduce((a, [, s]) => a + s.total, 0);
            const then = picked.reduce((a, [t, s]) => a + beforeBytes(t, s), 0);
            console.log(`  stack of ${n} nodes: ${picked.length} NB resources, ${MB(now)}; before ${MB(then)}`);
        }
    } finally {
        await host.stop();
        await env.cleanup();
    }
}

main().then(
    () => process.exit(0),
    (e) => {
        console.error(e);
        process.exit(1);
    },
);
