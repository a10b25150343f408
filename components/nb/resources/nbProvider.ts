// The dynamic provider of an NB resource kind. What the engine stores in state is only a one-line
// stub (../../dynamic/stub) that runs this code from the installed package; the code itself is ordinary.
import type * as pulumi from "@pulumi/pulumi";
import { adoptGroup } from "../transact/adopt";
import { applyGroup, describe, readGroup, removeGroup } from "../transact/apply";
import { recordedRows, type Recorded } from "../core/claims";
import { diffAnswer, diffNb } from "./diff";
import { appliedOutputs, checkInputs, outputsOf } from "./kindInputs";
import { KNOWN_VERSIONS, type NbKind } from "../kinds/common";
import { recordedStates } from "../core/record";
import { NB_MODULE } from "./nbResource";
import { awaitChassis } from "../transact/chassisWait";
import { databaseOf, withNb } from "../transact/session";
import { providerStub, type PackageProvider } from "../../dynamic/stub";

/** Resource id (also the import id): owner and group, which is also how the rows are found. */
export const resourceId = (owner: string, group: string) => `${owner}:${group}`;

function requireKnownVersion(kind: NbKind, props: Record<string, any>): void {
    const version = props.version ?? "1";
    if (!KNOWN_VERSIONS.includes(version)) {
        throw new Error(
            `${kind.type}: state has schema version ${JSON.stringify(version)}, newer than this code knows (${KNOWN_VERSIONS.join(", ")}): update the program`,
        );
    }
}

/** The stub a resource class of `kind` registers; called once per kind, at module load. */
export function nbProvider(kind: NbKind): PackageProvider {
    return providerStub(NB_MODULE, kind.type, nbProviderImplementation(kind));
}

export function nbProviderImplementation(kind: NbKind): pulumi.dynamic.ResourceProvider {
    // Inputs checked by `check` are normalized; outputs recorded earlier carry the same fields.
    const run = async <T>(props: Record<string, any>, group: string, work: () => Promise<T>): Promise<T> => {
        try {
            return await work();
        } catch (err) {
            throw await describe(kind, group, err, props.nb);
        }
    };
    // The row UUIDs a state records (../core/record), read with the rows its own inputs declare.
    const recordedOf = (props: Record<string, any>): Recorded => recordedRows(recordedStates(props.rows, kind.rows(props as never)));
    // `own`: the rows of the state this call starts from (none on create), claimed by UUID first.
    const applyInputs = async (inputs: Record<string, any>, own: Recorded | undefined) => {
        requireKnownVersion(kind, inputs);
        const group = kind.group(inputs);
        const specs = kind.rows(inputs);
        const at = { database: databaseOf(inputs.nb), create: own === undefined };
        const uuids = await run(inputs, group, () =>
            withNb(inputs.nb, async (nb) => {
                const applied = await applyGroup(kind, nb, at, inputs.owner, group, specs, own ?? {});
                await awaitChassis(inputs.nb, nb);
                return applied;
            }),
        );
        return { group, outs: appliedOutputs(kind, inputs, group, specs, uuids) };
    };
    // Import: no recorded state, only the declared inputs. The group is found by its tags, or by
    // the names ovn-kubernetes gives its rows when nobody tagged them (../transact/adopt); the inputs are
    // returned too, as the engine needs them for an imported resource.
    const importGroup = async (id: string, raw: Record<string, any>) => {
        const { inputs, failures } = checkInputs(kind, raw);
        if (failures.length > 0)
            throw new Error(`${kind.type} ${id}: cannot import: ${failures.map((f) => `${f.property} ${f.reason}`).join("; ")}`);
        const group = kind.group(inputs);
        const expected = resourceId(inputs.owner, group);
        if (id !== expected)
            throw new Error(
                `${kind.type}: import id ${JSON.stringify(id)} does not name the declared rows: expected ${JSON.stringify(expected)} (<owner>:<group>)`,
            );
        const specs = kind.rows(inputs);
        const rows = await run(inputs, group, () =>
            withNb(inputs.nb, async (nb) => (await readGroup(kind, nb, inputs.owner, group, specs, {})) ?? adoptGroup(nb, group, specs)),
        );
        if (rows === undefined) return { id: "", props: {} };
        return { id, props: outputsOf(kind, inputs, group, rows), inputs };
    };
    return {
        check: async (_olds: Record<string, any>, news: Record<string, any>) => checkInputs(kind, news),
        diff: async (_id: string, olds: Record<string, any>, news: Record<string, any>) => {
            requireKnownVersion(kind, olds);
            return diffAnswer(diffNb(kind, olds, news));
        },
        create: async (inputs: Record<string, any>) => {
            const { group, outs } = await applyInputs(inputs, undefined);
            return { id: resourceId(inputs.owner, group), outs };
        },
        update: async (_id: string, olds: Record<string, any>, news: Record<string, any>) => {
            requireKnownVersion(kind, olds);
            return { outs: (await applyInputs(news, recordedOf(olds))).outs };
        },
        read: async (id: string, props?: Record<string, any>) => {
            if (!props) throw new Error(`${kind.type} ${id}: read needs the recorded state or the declared inputs`);
            if (props.rows === undefined) return importGroup(id, props);
            requireKnownVersion(kind, props);
            const group = props.group ?? kind.group(props as never);
            const rows = await run(props, group, () =>
                withNb(props.nb, (nb) => readGroup(kind, nb, props.owner, group, kind.rows(props as never), recordedOf(props))),
            );
            // No row of the group left at all: the resource is gone, and the next `up` creates it again.
            if (rows === undefined) return { id: "", props: {} };
            return { id, props: outputsOf(kind, props, group, rows) };
        },
        delete: async (_id: string, props: Record<string, any>) => {
            requireKnownVersion(kind, props);
            const group = props.group ?? kind.group(props as never);
            await run(props, group, () =>
                withNb(props.nb, async (nb) => {
                    await removeGroup(kind, nb, props.owner, group, recordedOf(props));
                    await awaitChassis(props.nb, nb);
                }),
            );
        },
    };
}
