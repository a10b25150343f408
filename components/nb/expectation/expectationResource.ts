// NorthboundExpectation: in ovnkube mode, the plan's view of rows that ovnkube writes. It reads
// NB and reports, row by row and column by column, where ovnkube's realised topology differs
// from the plan; it writes nothing.
import * as pulumi from "@pulumi/pulumi";
import { providerStub } from "../../dynamic/stub";
import { PackageResource } from "../../dynamic/resource";
import type { NbConnection } from "../kinds/common";
import { NB_MODULE, nbResourceOptions, nbConnectionInput, type NbConnectionArgs } from "../resources/nbResource";
import type { Settle } from "./expectationInputs";
import { EXPECTATION_TYPE, expectationProvider } from "./expectationProvider";
import type { Cell, Cells } from "./cells";

export interface NorthboundExpectationArgs {
    /** How to reach NB; made a secret as a whole (it holds the private key). */
    nb: pulumi.Input<NbConnectionArgs>;
    /** What the rows belong to, e.g. `node/node2`, `gateway/node2`, `cluster`. */
    subject: pulumi.Input<string>;
    /**
     * Row key → column path → expected value, e.g.
     * `{ "Logical_Switch node2": { "other_config:subnet": "10.128.5.0/24" } }` (see README).
     */
    rows: pulumi.Input<Record<string, pulumi.Input<Record<string, pulumi.Input<Cell>>>>>;
    /** How long create/update wait for ovnkube (default 180 s, read every 2 s). */
    settle?: pulumi.Input<Partial<Settle>>;
}

// The provider, registered once, at module load.
const provider = providerStub(NB_MODULE, EXPECTATION_TYPE, expectationProvider());

export class NorthboundExpectation extends PackageResource {
    declare readonly nb: pulumi.Output<NbConnection>;
    declare readonly subject: pulumi.Output<string>;
    /** The observed rows: equal to the expectation after create/update, what NB holds after refresh. */
    declare readonly rows: pulumi.Output<Cells>;
    declare readonly settle: pulumi.Output<Settle>;

    constructor(name: string, args: NorthboundExpectationArgs, opts?: pulumi.CustomResourceOptions) {
        // Delete-first replacement (nbResourceOptions) is harmless here: delete writes nothing.
        const props = { nb: nbConnectionInput(args.nb), subject: args.subject, rows: args.rows, settle: args.settle };
        super(provider, name, props, nbResourceOptions(opts));
    }
}
