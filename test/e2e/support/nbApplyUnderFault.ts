// An NB apply of many node switches through the providers (the serialized provider text the
// engine keeps, check + create per resource, 16 at a time as the engine's --parallel), recording
// each resource's outcome as the engine would: a create that succeeded is in state, one that
// failed is created again by the next `up`. A hook runs once after a given number of creates, to
// fault the databases in the middle of the apply.
import { clusterRouterKind } from "../../../components/nb/kinds/clusterRouter";
import { nodeSwitchKind } from "../../../components/nb/kinds/nodeSwitch";
import type { ClusterModel } from "../../../components/model/types";
import { loadProviders } from "../../../bench/providers";
import { resources, type Resource } from "../../../bench/topology";
import { scaleModel } from "../../../lab/harness/scale";

/** A scale model whose router, join switch and ports carry their own names, so it sits beside a stack's topology in one NB. */
export function sideModel(nodes: number, prefix: string): ClusterModel {
    const model = scaleModel(nodes, 0);
    const name = `${prefix}_router`;
    model.clusterRouter = {
        ...model.clusterRouter,
        name,
        joinSwitch: `${prefix}_join`,
        joinPort: `rtoj-${name}`,
        joinPeerPort: `jtor-${name}`,
    };
    for (const n of model.nodeNetworks) n.clusterRouter = name;
    return model;
}

/** Rows the model's groups hold, by table. */
export function expectedRows(owner: string, model: ClusterModel): Record<string, number> {
    const specs = [clusterRouterKind, nodeSwitchKind].flatMap((kind) =>
        kind.instances(model).flatMap((i) => kind.rows({ ...kind.normalize(i.inputs), owner } as never)),
    );
    const out: Record<string, number> = {};
    for (const s of specs) out[s.table] = (out[s.table] ?? 0) + 1;
    return out;
}

export interface ApplyOutcome {
    created: number;
    failed: { name: string; error: string }[];
}

export async function applyNodes(
    common: Record<string, unknown>,
    model: ClusterModel,
    only: ReadonlySet<string> | undefined,
    fault?: { afterCreates: number; run: () => Promise<void> },
): Promise<ApplyOutcome & { done: Set<string> }> {
    const providers = await loadProviders();
    const topology = resources(model, {});
    const all: Resource[] = [topology.router, ...topology.rest];
    const nameOf = (r: Resource) => (r.type === "ClusterRouter" ? "router" : String((r.inputs.network as { node: string }).node));
    const todo = all.filter((r) => only === undefined || only.has(nameOf(r)));
    const done = new Set<string>();
    const failed: ApplyOutcome["failed"] = [];
    let faulted: Promise<void> | undefined;
    const one = async (r: Resource) => {
        try {
            const provider = providers[r.type];
            const { inputs, failures } = await provider.check!({}, { ...common, ...r.inputs });
            if (failures?.length) throw new Error(JSON.stringify(failures));
            await provider.create(inputs);
            done.add(nameOf(r));
            if (fault && !faulted && done.size >= fault.afterCreates) faulted = fault.run();
        } catch (err) {
            failed.push({ name: nameOf(r), error: (err as Error).message });
        }
    };
    // The router first, as the engine orders it (every switch depends on it).
    const [first, ...rest] = todo[0]?.type === "ClusterRouter" ? todo : [undefined, ...todo];
    if (first) await one(first);
    let next = 0;
    await Promise.all(
        Array.from({ length: 16 }, async () => {
            while (next < rest.length) await one(rest[next++]!);
        }),
    );
    await faulted;
    return { created: done.size, failed, done };
}
