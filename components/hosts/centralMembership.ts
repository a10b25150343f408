// CentralMembership: the record of a clustered central's members, whose `check` refuses at preview
// the member changes this project cannot carry out on a running raft cluster. Writes nothing to
// any host. Supported: creating it (a new cluster, or a single central growing into one, see the
// README's "Highly available central"); the same members again. Refused: adding, removing,
// reordering or re-addressing members, and changing the raft ports or protocol, since members
// would have to join or leave one at a time with the cluster's agreement in between.
import * as pulumi from "@pulumi/pulumi";
import type { CentralClusterModel } from "../model/types";
import { providerStub } from "../dynamic/stub";
import { PackageResource } from "../dynamic/resource";

/** The refusal for a change from `olds` to `news`, or undefined when the change is supported. */
export function membershipRefusal(olds: Partial<CentralClusterModel> | undefined, news: CentralClusterModel): string | undefined {
    if (olds?.members === undefined) return undefined;
    const describe = (c: Partial<CentralClusterModel>) =>
        `${(c.members ?? []).map((m) => `${m.host}@${m.ip}`).join(", ")} (${c.protocol}, raft ${c.nbRaftPort}/${c.sbRaftPort}, clients ${c.nbPort}/${c.sbPort})`;
    const before = describe(olds);
    const after = describe(news);
    if (before === after) return undefined;
    return (
        `the clustered central's members cannot change in place: ${before} -> ${after}. ` +
        `Supported: the same members, or growing a single central into a cluster. To change the members, ` +
        `destroy the stack's central (its NB data goes with it) and apply the new members, or keep the members as they are`
    );
}

/**
 * The refusal for going from several centrals to fewer than two, or undefined. A single central
 * records no membership (stacks that had one stay unchanged), so this is judged by the change
 * guard, which sees both lists at the start of every preview and up (../guard/changeGuard).
 */
export function centralShrinkRefusal(olds: readonly string[] | undefined, news: readonly string[]): string | undefined {
    if (olds === undefined || olds.length < 2 || news.length >= 2) return undefined;
    return (
        `the clustered central (${olds.join(", ")}) cannot become a single central (${news.join(", ")}) in place: its members would have to leave ` +
        `the raft cluster one at a time with the others' agreement. Destroy the stack's central (its NB data goes with it) and apply the single central, ` +
        `or keep the members as they are`
    );
}

const membershipProvider: pulumi.dynamic.ResourceProvider = {
    async check(olds: any, news: any) {
        const refusal = membershipRefusal(olds?.cluster, news.cluster);
        return refusal ? { inputs: news, failures: [{ property: "cluster", reason: refusal }] } : { inputs: news };
    },
    async create(inputs: any) {
        return { id: inputs.cluster.members.map((m: { host: string }) => m.host).join(","), outs: inputs };
    },
    async diff(_id: string, olds: any, news: any) {
        return { changes: JSON.stringify(olds.cluster) !== JSON.stringify(news.cluster) };
    },
    async update(_id: string, _olds: any, news: any) {
        return { outs: news };
    },
};

const provider = providerStub("ovn-central", "CentralMembership", membershipProvider);

export class CentralMembership extends PackageResource {
    declare readonly cluster: pulumi.Output<CentralClusterModel>;

    constructor(name: string, args: { cluster: CentralClusterModel }, opts?: pulumi.CustomResourceOptions) {
        super(provider, name, args, opts);
    }
}
