// ChangeGuard: the destroy guard's diff (./destroyGuard: a host renamed in place, removed groups or
// hosts that something still blocks) at the START of an `up`. The cluster creates it first and
// every host's key check depends on it; everything else waits for those. The SDK registers a
// resource only once the resources in its dependsOn have registered, and a registration returns
// only when its step is done, so a refusal in this diff fails the program before any other step:
// nothing is created, updated or deleted. The destroy guard, registered last, sees a change only
// after the steps of everything else: enough for a removal (its deletes come after the program),
// not for a rename, whose new resources are created as they register.
// Its delete checks nothing: a destroy deletes it last, after the central (and NB) are gone.
import * as pulumi from "@pulumi/pulumi";
import { destroyGuardProvider, guardOptions, guardProps, type DestroyGuardInputs } from "./destroyGuard";
import { providerStub } from "../dynamic/stub";
import { PackageResource } from "../dynamic/resource";

export const CHANGE_GUARD_TYPE = "pulumi-nodejs:dynamic/ovn-kubernetes:ChangeGuard";

export const changeGuardProvider: pulumi.dynamic.ResourceProvider = {
    ...destroyGuardProvider,
    async delete() {},
};

const provider = providerStub("ovn-kubernetes", "ChangeGuard", changeGuardProvider);

export class ChangeGuard extends PackageResource {
    constructor(name: string, args: DestroyGuardInputs, opts?: pulumi.CustomResourceOptions) {
        super(provider, name, guardProps(args), guardOptions(args, opts));
    }
}
