// A part of the cluster on one node (its packages, zone, chassis, management port, network): a
// name and the resources it made, each a child of the cluster itself. These parts were components
// once; a component adds a record to the checkpoint and a registration to every run, once per part
// and node (docs/state-size.md). Each resource keeps an alias to the component it sat in, so a
// stack written then moves to this shape with no step on any host (only the components' records
// go), and waits for what that component waited for (a child waited for its parent's registration).
import * as pulumi from "@pulumi/pulumi";

export interface PartOptions {
    /** The resource every resource of the part is a child of: the cluster. */
    parent: pulumi.Resource;
    /** What every resource of the part waits for. */
    dependsOn?: pulumi.Resource[];
    /** The URN of the component the part sat in as a component, if it sat in one (the cluster's otherwise). */
    formerParent?: pulumi.Output<string>;
}

export type ChildOptions = Omit<pulumi.CustomResourceOptions, "dependsOn" | "parent" | "aliases"> & {
    dependsOn?: pulumi.Input<pulumi.Resource>[];
};

export class Part {
    /** The part's URN when it was a component: where its resources were. */
    readonly formerUrn: pulumi.Output<string>;

    constructor(
        type: string,
        name: string,
        readonly options: PartOptions,
    ) {
        this.formerUrn = pulumi.createUrn(name, type, options.formerParent ?? options.parent);
    }

    /**
     * The options of one of the part's resources. Its `dependsOn` names resources of the part
     * itself, which wait for the part's dependencies: listing those again would only lengthen
     * its record. A resource that waits for none of the part waits for the part's dependencies.
     */
    child(opts: ChildOptions = {}): pulumi.CustomResourceOptions {
        const dependsOn = opts.dependsOn?.length ? opts.dependsOn : (this.options.dependsOn ?? []);
        return {
            ...opts,
            parent: this.options.parent,
            ...(dependsOn.length > 0 ? { dependsOn } : {}),
            aliases: [{ parent: this.formerUrn }],
        };
    }

    /** The options of a part that sat inside this one. */
    inner(): PartOptions {
        return { ...this.options, formerParent: this.formerUrn };
    }
}
