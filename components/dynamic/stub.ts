// The dynamic providers' stored form. The engine stores a dynamic resource's `__provider` text in
// its inputs and outputs, and its dynamic-provider host runs that text for every later call,
// refresh and delete included: it loads the text as a CommonJS module and calls its `handler()`
// export for the provider object (@pulumi/pulumi cmd/dynamic-provider, getProvider). The SDK's
// dynamic.Resource fills `__provider` by serializing a closure, which copies the implementation
// (about 130 KB) or, for even a forwarding stub, wraps each of its methods (1.9 KB). This module
// writes the text itself instead: one line that require()s the installed package and asks it for
// the provider of its type token under PROVIDER_CONTRACT (./registry). The host's cwd is the
// project, so the package resolves from its node_modules, and a fixed package reaches refresh and
// delete of existing resources. No closure is serialized, so nothing of the program can leak in.
import { PROVIDER_CONTRACT, PROVIDERS_ENTRY, packageVersion } from "./contract";
import type * as pulumi from "@pulumi/pulumi";
import { registerProvider } from "./registry";

/** What a resource class of the package needs to register itself as a dynamic resource. */
export interface PackageProvider {
    /** The resource type: `pulumi-nodejs:dynamic/<module>:<Type>`, as dynamic.Resource names it. */
    resourceType: string;
    /** The `__provider` text the engine stores. */
    text: string;
}

/**
 * Registers `impl` for the installed package under `<module>:<Type>` and returns what the resource
 * class passes to PackageResource. Called once per provider, at module load.
 */
export function providerStub(module: string, type: string, impl: pulumi.dynamic.ResourceProvider): PackageProvider {
    const token = `${module}:${type}`;
    registerProvider(token, impl);
    // Without the package, require() fails naming PROVIDERS_ENTRY, which is what to install.
    const args = [JSON.stringify(token), PROVIDER_CONTRACT, JSON.stringify(packageVersion())].join(", ");
    return {
        resourceType: `pulumi-nodejs:dynamic/${token}`,
        text: `exports.handler = () => require(${JSON.stringify(PROVIDERS_ENTRY)}).installedProvider(${args});\n`,
    };
}
