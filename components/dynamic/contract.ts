// What a provider stub in state and the installed package agree on. The stub (./stub) is all the
// engine stores of a dynamic provider; at run time it require()s PROVIDERS_ENTRY from the project's
// node_modules and asks it for the provider of its type token under PROVIDER_CONTRACT.
// Raise PROVIDER_CONTRACT when what the stub passes or calls changes: state written under another
// contract is then refused naming both, instead of being run by code that misreads it.

/** This package's npm name (components/package.json `name`; a unit test keeps them equal). */
export const PACKAGE_NAME = "@ovn-kubernetes-as-code/cluster";
/** The `exports` entry the stubs require at run time. */
export const PROVIDERS_ENTRY = `${PACKAGE_NAME}/providers`;
export const PROVIDER_CONTRACT = 1;

/** The installed package's version, read from its package.json through node_modules as the stubs resolve it. */
export function packageVersion(): string {
    return (require(`${PACKAGE_NAME}/package.json`) as { version: string }).version;
}
