// The installed side of the provider stubs (./stub): the implementations by type token, and the
// contract check every stub call passes through. Filled at module load by providerStub, in the
// program and in the provider host alike; the stubs never capture it (it is reached through
// require() of the package).
import type * as pulumi from "@pulumi/pulumi";
import { PACKAGE_NAME, PROVIDER_CONTRACT, PROVIDERS_ENTRY, packageVersion } from "./contract";
import { rememberProviderConfig } from "./providerConfig";

const providers: Record<string, pulumi.dynamic.ResourceProvider> = {};

/** Recorded outputs whose provider text is a whole provider, as state written before the stubs holds it. */
const writtenBeforeStubs = (olds: Record<string, unknown>) =>
    typeof olds.__provider === "string" && !olds.__provider.includes(PROVIDERS_ENTRY);

/**
 * Such state keeps running its own copy for refresh and delete until the resource is updated, and
 * the engine sees no change while the inputs are the same; so its diff reports a change, and the
 * next `up` updates the resource (reapplying the same rows), which stores the stub. A provider
 * without update keeps its copy until it is replaced: an update would drop its outputs.
 */
function storingStubs(impl: pulumi.dynamic.ResourceProvider): pulumi.dynamic.ResourceProvider {
    const diff = impl.diff;
    if (diff === undefined || impl.update === undefined) return impl;
    return {
        ...impl,
        diff: async (id, olds, news) => {
            const d = await diff(id, olds, news);
            return writtenBeforeStubs(olds) ? { ...d, changes: true } : d;
        },
    };
}

export function registerProvider(token: string, impl: pulumi.dynamic.ResourceProvider): void {
    if (providers[token] !== undefined) throw new Error(`two dynamic providers registered as ${token}`);
    // Every provider takes the engine's configuration: any of them may be the first the host loads.
    providers[token] = { ...storingStubs(impl), configure: rememberProviderConfig };
}

/**
 * Keeps serving a type this package no longer creates, for stacks that still hold resources of it
 * until their next `up` deletes them: deleting one touches nothing, reading one (refresh) keeps
 * what it recorded. `instead` says what does its work now.
 */
export function retireProvider(token: string, instead: string): void {
    registerProvider(token, {
        async create() {
            throw new Error(`${token} is no longer created: ${instead}`);
        },
        async read(id, props) {
            return { id, props };
        },
    });
}

/** What a stub calls: the implementation of `token`, if the stub's contract is the one this package speaks. */
export function installedProvider(token: string, contract: number, writtenBy: string): pulumi.dynamic.ResourceProvider {
    if (contract !== PROVIDER_CONTRACT) {
        throw new Error(
            `${token}: the state's provider stub was written by ${PACKAGE_NAME} ${writtenBy} for provider contract ${contract}, ` +
                `but the installed ${PACKAGE_NAME} ${packageVersion()} speaks contract ${PROVIDER_CONTRACT}: install a version of ${PACKAGE_NAME} that speaks contract ${contract}`,
        );
    }
    const impl = providers[token];
    if (impl === undefined) {
        throw new Error(
            `${token}: the installed ${PACKAGE_NAME} ${packageVersion()} has no such provider (the state was written by ${writtenBy}); known: ${Object.keys(providers).sort().join(", ")}`,
        );
    }
    return impl;
}
