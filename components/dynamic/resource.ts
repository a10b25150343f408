// The base of the package's dynamic resources: what dynamic.Resource does (the `pulumi-nodejs`
// dynamic type, `__provider` among the inputs), with the one-line stub of ./stub as `__provider`.
import * as pulumi from "@pulumi/pulumi";
import type { PackageProvider } from "./stub";

const PROVIDER_KEY = "__provider";

export abstract class PackageResource extends pulumi.CustomResource {
    protected constructor(provider: PackageProvider, name: string, props: pulumi.Inputs, opts?: pulumi.CustomResourceOptions) {
        if (PROVIDER_KEY in props) throw new Error(`${provider.resourceType} ${name}: ${PROVIDER_KEY} is reserved for the provider stub`);
        super(provider.resourceType, name, { ...props, [PROVIDER_KEY]: provider.text }, opts);
    }
}
