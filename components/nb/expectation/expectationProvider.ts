// The dynamic provider of NorthboundExpectation; state holds only its stub (../../dynamic/stub).
//
// In ovnkube mode ovnkube writes these rows, so this provider never writes NB: create and update
// wait until NB holds what the plan expects (or fail naming every difference), read reports what
// NB holds now, delete only forgets. Inputs and outputs share the property `rows` with the same
// keys, so the engine's own property diff shows a drifted cell as
// rows["Logical_Switch node2"]["other_config:subnet"]: "10.128.5.0/24" => "10.128.7.0/24".
import type * as pulumi from "@pulumi/pulumi";
import { withoutKey } from "../transact/session";
import { changedLeaves, diffAnswer } from "../resources/diff";
import { errorText } from "../transact/nbErrors";
import { checkExpectation, normalizeExpectation, type ExpectationInputs } from "./expectationInputs";
import { notRealised } from "./observe";
import { observeNb, settle } from "./observeNb";
import type { Cells } from "./cells";

export const EXPECTATION_TYPE = "NorthboundExpectation";

type Props = Record<string, any>;

/** Normalized inputs with `rows` replaced by what was observed; JSON round trip drops undefined (Structs reject it). */
const outputsOf = (props: Props, observed: Cells): Props => JSON.parse(JSON.stringify({ ...normalizeExpectation(props), rows: observed }));

/** A transport failure as the operator needs it: which expectation, what failed, never the key. */
async function explain(props: Props, err: unknown): Promise<Error> {
    const text = `${EXPECTATION_TYPE} ${props.subject}: ${await errorText(err, { ssh: props.nb?.ssh, socket: props.nb?.socket })}`;
    return new Error(withoutKey(text, props.nb));
}

async function observeNow(props: Props): Promise<Cells> {
    try {
        return await observeNb(props.nb, props.rows);
    } catch (err) {
        throw await explain(props, err);
    }
}

/** A pinned host key refused stays refused: only a database or connection not up yet is waited for. */
const notUpYet = (err: unknown) => (err as { name?: unknown } | undefined)?.name !== "SshHostKeyError";

async function realise(inputs: ExpectationInputs): Promise<Props> {
    const { observed, differences, waitedMs } = await settle(
        () => observeNb(inputs.nb, inputs.rows),
        inputs.rows,
        inputs.settle,
        notUpYet,
    ).catch(async (err) => {
        throw await explain(inputs, err);
    });
    if (differences.length > 0)
        throw new Error(notRealised(EXPECTATION_TYPE, inputs.subject, Math.round(waitedMs / 100) / 10, differences));
    return outputsOf(inputs, observed);
}

export function expectationProvider(): pulumi.dynamic.ResourceProvider {
    return {
        check: async (_olds: Props, news: Props) => checkExpectation(news),
        // The recorded outputs hold the observed rows: a drift found by refresh is a change, and
        // the next up waits for the plan again. Refresh records the observed rows as the inputs
        // too (read), so every difference here is one between the engine's old and new inputs:
        // left to the engine's own diff, which names each cell (../resources/diff diffAnswer).
        diff: async (_id: string, olds: Props, news: Props) => {
            const changed = changedLeaves(normalizeExpectation(olds), normalizeExpectation(news));
            return diffAnswer({
                replaces: changed.filter((p) => p === "subject"),
                updates: changed.filter((p) => p !== "subject"),
                drift: [],
            });
        },
        create: async (inputs: Props) => ({ id: inputs.subject, outs: await realise(inputs as ExpectationInputs) }),
        update: async (_id: string, _olds: Props, news: Props) => ({ outs: await realise(news as ExpectationInputs) }),
        // Inputs are returned too: after a refresh the next preview shows observed => planned per
        // cell. `nb` stays a secret there: the engine keeps the secret mark of a property by name.
        read: async (id: string, props?: Props) => {
            if (!props) throw new Error(`${EXPECTATION_TYPE} ${id}: read needs the recorded state (import is not supported)`);
            const outs = outputsOf(props, await observeNow(props));
            return { id, props: outs, inputs: outs };
        },
        // ovnkube owns the rows: there is nothing to delete, the engine only forgets the expectation.
        delete: async () => undefined,
    };
}
