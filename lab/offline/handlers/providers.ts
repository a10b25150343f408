// Provider resources (pulumi:providers:*) and what other handlers need of them: a resource names
// its provider by reference (`<provider urn>::<provider id>`), and the provider's inputs say
// where the resource lives (a Kubernetes provider's kubeconfig, context, namespace). The inputs
// are known from the state (refresh, destroy: the program does not run) and from this run's
// registrations (up, preview: a provider registers before any resource that references it).
import type { StateResource } from "../state";
import type { Props } from "../values";
import { recordedHandler } from "./recorded";
import type { ResourceHandler } from "./types";

export const isProviderType = (type: string) => type.startsWith("pulumi:providers:");

/** The URN part of a provider reference `urn::id` (URNs contain `::` themselves: the id is after the last one). */
export function providerUrn(ref: string): string {
    const at = ref.lastIndexOf("::");
    return at > 0 ? ref.slice(0, at) : ref;
}

export class ProviderInputs {
    private readonly byUrn = new Map<string, { type: string; inputs: Props }>();

    constructor(resources: readonly StateResource[] = []) {
        for (const r of resources) if (isProviderType(r.type) && !r.pendingDelete) this.record(r.urn, r.type, r.inputs);
    }

    record(urn: string, type: string, inputs: Props): void {
        this.byUrn.set(urn, { type, inputs });
    }

    /** The type and inputs (secrets still wrapped) of the provider a resource references; undefined for the default provider. */
    of(ref: string | undefined): { type: string; inputs: Props } | undefined {
        return ref ? this.byUrn.get(providerUrn(ref)) : undefined;
    }
}

/** Provider resources are recorded like components; their inputs are also kept where resources can find them. */
export function providerHandler(providers: ProviderInputs): ResourceHandler {
    const recorded = recordedHandler();
    return {
        ...recorded,
        async check(reg, old) {
            const inputs = await recorded.check(reg, old);
            providers.record(reg.urn, reg.type, inputs);
            return inputs;
        },
    };
}
