// What the engine does with one resource across `up`, `refresh` and `destroy`, reduced to the
// provider calls and the state it keeps: checked inputs and outputs per URN.
import { kindOf, recordedStates, type RowState } from "@ovn-kubernetes-as-code/cluster/nb";
import { applyReplaceOnChanges, isReplacement, processIgnoreChanges, resolveDiff, type EngineDiff } from "../offline/engineDiff";
import { unwrapSecrets } from "../offline/sdk";
import type { DiffReply, ProviderHost } from "./providerHost";
import type { Registered } from "./serializedProviders";

type Props = Record<string, any>;

export interface Tracked {
    urn: string;
    name: string;
    /** Inputs as the program registered them (secrets unwrapped, __provider included). */
    registered: Props;
    checked?: Props;
    id?: string;
    outputs?: Props;
}

export class CheckFailed extends Error {
    constructor(readonly failures: { property: string; reason: string }[]) {
        super(`check failed: ${failures.map((f) => `${f.property}: ${f.reason}`).join("; ")}`);
    }
}

/** The rows outputs record (of `t`, or `props` of its kind), whole: table, key, columns, UUID, under their OVN names. */
export function rowStates(t: Tracked, props: Props = t.outputs!): Record<string, RowState> {
    const kind = kindOf(t.urn.split("::")[2].split(":").pop()!);
    return recordedStates(props.rows, kind.rows(props as never));
}

export function track(r: Registered): Tracked {
    return { urn: `urn:pulumi:nbtest::ovn-kubernetes::${r.type}::${r.name}`, name: r.name, registered: unwrapSecrets(r.inputs) as Props };
}

/** Resource options the engine applies to a diff. */
export interface DiffOptions {
    ignoreChanges?: string[];
    replaceOnChanges?: string[];
}

/**
 * `news` replaces registered inputs (keeping __provider); returns what the engine decided: the
 * provider's reply, and the engine's diff after it (a DIFF_UNKNOWN resolved from the inputs,
 * ignoreChanges and replaceOnChanges applied; lab/offline/engineDiff).
 */
export async function up(
    host: ProviderHost,
    t: Tracked,
    news: Props = t.registered,
    opts: DiffOptions = {},
): Promise<{ action: "create" | "update" | "replace" | "same"; diff?: DiffReply; engine?: EngineDiff }> {
    const given = { ...news, __provider: t.registered.__provider };
    const ignored = t.checked ? processIgnoreChanges(given, t.checked, opts.ignoreChanges ?? []).inputs : given;
    const checked = await host.check(t.urn, t.checked ?? {}, ignored);
    if (checked.failures.length > 0) throw new CheckFailed(checked.failures);
    if (t.id === undefined) {
        const created = await host.create(t.urn, checked.inputs);
        Object.assign(t, { id: created.id, outputs: created.properties, checked: checked.inputs });
        return { action: "create" };
    }
    const diff = await host.diff(t.urn, t.id, t.outputs!, checked.inputs, t.checked!);
    const engine = applyReplaceOnChanges(resolveDiff(diff, t.checked!, checked.inputs, opts.ignoreChanges), opts.replaceOnChanges ?? []);
    if (!engine.changes) {
        t.checked = checked.inputs;
        return { action: "same", diff, engine };
    }
    if (isReplacement(engine)) {
        await host.delete(t.urn, t.id, t.outputs!, t.checked!);
        const created = await host.create(t.urn, checked.inputs);
        Object.assign(t, { id: created.id, outputs: created.properties, checked: checked.inputs });
        return { action: "replace", diff, engine };
    }
    t.outputs = await host.update(t.urn, t.id, t.outputs!, checked.inputs, t.checked!);
    t.checked = checked.inputs;
    return { action: "update", diff, engine };
}

/** Refresh: the provider's view of the live rows replaces the recorded outputs; "" id means gone. */
export async function refresh(host: ProviderHost, t: Tracked): Promise<Props | undefined> {
    const read = await host.read(t.urn, t.id!, t.outputs!, t.checked!);
    if (read.id === "") {
        t.id = undefined;
        t.outputs = undefined;
        return undefined;
    }
    t.outputs = read.properties;
    // Inputs the provider returned are recorded, as the engine's refresh step does.
    if (read.inputs) t.checked = read.inputs;
    return read.properties;
}

export async function destroy(host: ProviderHost, t: Tracked): Promise<void> {
    await host.delete(t.urn, t.id!, t.outputs!, t.checked!);
    t.id = undefined;
    t.outputs = undefined;
}
