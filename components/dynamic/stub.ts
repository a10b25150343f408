// The dynamic providers' serialized form. The SDK stores a dynamic provider's code in every
// resource's inputs and outputs and runs that copy for refresh and delete. Capturing the
// implementation would freeze about 130 KB of code into each resource, twice; so every resource
// class hands the SDK this stub instead: one forwarding method per method of the implementation,
// capturing only strings and a number. At run time (in the engine's dynamic-provider host, whose
// cwd is the project) the stub require()s the installed package and runs ITS code, so a fixed
// package reaches refresh and delete of existing resources.
// The SDK would itself emit `require(<module>)` for a module object found under node_modules, but a
// workspace or `file:` install is a symlink whose real path lies outside node_modules, and the
// SDK then copies the module by value; the explicit require below does not depend on how the
// package was installed.
import type * as pulumi from "@pulumi/pulumi";
import { PROVIDER_CONTRACT, PROVIDERS_ENTRY, packageVersion } from "./contract";
import { registerProvider } from "./registry";

type Method = keyof pulumi.dynamic.ResourceProvider;

/**
 * Registers `impl` for the installed package under the resource type's `<module>:<Type>` (its type
 * token is `pulumi-nodejs:dynamic/<module>:<Type>`) and returns the stub to pass to
 * `dynamic.Resource`. Called once per provider, at module load.
 */
export function providerStub(module: string, type: string, impl: pulumi.dynamic.ResourceProvider): pulumi.dynamic.ResourceProvider {
    const token = `${module}:${type}`;
    registerProvider(token, impl);
    // Short names: this text is stored twice per resource. Without the package, require() fails
    // naming PROVIDERS_ENTRY, which is what to install.
    const e = PROVIDERS_ENTRY;
    const t = token;
    const c = PROVIDER_CONTRACT;
    const v = packageVersion();
    const i = () => require(e).installedProvider(t, c, v);
    const stub: Partial<Record<Method, unknown>> = {};
    for (const m of Object.keys(impl) as Method[]) stub[m] = (...a: unknown[]) => i()[m](...a);
    return stub as pulumi.dynamic.ResourceProvider;
}
