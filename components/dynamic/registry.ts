// The installed side of the provider stubs (./stub): the implementations by type token, and the
// contract check every stub call passes through. Filled at module load by providerStub, in the
// program and in the provider host alike; the stubs never capture it (it is reached through
// require() of the package).
import type * as pulumi from "@pulumi/pulumi";
import { PACKAGE_NAME, PROVIDER_CONTRACT, packageVersion } from "./contract";

const providers: Record<string, pulumi.dynamic.ResourceProvider> = {};

export function registerProvider(token: string, impl: pulumi.dynamic.ResourceProvider): void {
    if (providers[token] !== undefined && providers[token] !== impl) throw new Error(`two dynamic providers registered as ${token}`);
    providers[token] = impl;
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
        throw new Error(`${token}: the installed ${PACKAGE_NAME} ${packageVersion()} has no such provider (the state was written by ${writtenBy}); known: ${Object.keys(providers).sort().join(", ")}`);
    }
    return impl;
}
