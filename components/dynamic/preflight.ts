// The provider of a check that refuses at preview: `check`, which the engine runs at every preview
// and up before any step, asks `refusal` (which reads a host over SSH) and fails naming `property`.
// A host that cannot be reached now passes `check` (its script bundle reports it); create and update
// ask again (a lost connection up to ATTEMPTS times) and refuse with the same words once it can.
import type * as pulumi from "@pulumi/pulumi";

export interface Preflight {
    /** The input the refusal is reported on. */
    property: string;
    /** Inputs whose change makes the check run again as an update. */
    keys: readonly string[];
    id(inputs: any): string;
    /** Why the change must not go ahead, or undefined; throws when the host cannot be reached. */
    refusal(inputs: any): Promise<string | undefined>;
}

/** Attempts of create and update: the check only reads, so a connection lost mid-read is asked again. */
const ATTEMPTS = 3;
const RETRY_MS = 1000;

export function preflightProvider(p: Preflight): pulumi.dynamic.ResourceProvider {
    const verified = async (inputs: any) => {
        let why: string | undefined;
        for (let attempt = 1; ; attempt++) {
            try {
                why = await p.refusal(inputs);
                break;
            } catch (err) {
                if (attempt >= ATTEMPTS) throw err;
                await new Promise((r) => setTimeout(r, RETRY_MS));
            }
        }
        if (why) throw new Error(why);
        return inputs;
    };
    return {
        async check(_olds: any, news: any) {
            let why: string | undefined;
            try {
                why = await p.refusal(news);
            } catch {
                return { inputs: news };
            }
            return why ? { inputs: news, failures: [{ property: p.property, reason: why }] } : { inputs: news };
        },
        async create(inputs: any) {
            return { id: p.id(inputs), outs: await verified(inputs) };
        },
        async diff(_id: string, olds: any, news: any) {
            return { changes: p.keys.some((k) => JSON.stringify(olds[k]) !== JSON.stringify(news[k])) };
        },
        async update(_id: string, _olds: any, news: any) {
            return { outs: await verified(news) };
        },
    };
}
