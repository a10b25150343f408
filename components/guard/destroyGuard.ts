// DestroyGuard: makes a destroy check first. The cluster creates it last, depending on every
// resource it created (a component in dependsOn stands for all its descendants, in the SDK and
// in the engine), so a destroy deletes it first and alone. Its delete reads what would block the
// deletes after it (./blockers) and throws listing every blocker: the destroy then stops before
// anything else is deleted, instead of stopping halfway on the first switch that still holds a
// pod's port. `read` reports the same list as the output `blockers`, so `pulumi refresh` (and the
// offline destroy preview) show what a destroy would stop on; create and update record [].
// State holds only the provider's stub (../dynamic/stub): the installed package runs this code.
import * as pulumi from "@pulumi/pulumi";
import { providerStub } from "../dynamic/stub";
import type { ClusterModel } from "../model/types";
import { clusterRouterKind } from "../nb/kinds/clusterRouter";
import { gatewayRouterKind } from "../nb/kinds/gatewayRouter";
import { nodeSwitchKind } from "../nb/kinds/nodeSwitch";
import { secretConnection, type NbConnectionArgs } from "../nb/resource";
import { destroyBlockers, type GuardedHost, type OwnedGroup } from "./blockers";

const MODULE = "ovn-kubernetes";
const TYPE = "DestroyGuard";
export const DESTROY_GUARD_TYPE = `pulumi-nodejs:dynamic/${MODULE}:${TYPE}`;

export interface DestroyGuardArgs {
    /** How to reach NB; only when the stack writes NB groups (Pulumi mode). */
    nb?: pulumi.Input<NbConnectionArgs>;
    /** `<project>/<stack>`: the pulumi-owner tag of the groups' rows. */
    owner: string;
    groups: OwnedGroup[];
    hosts: GuardedHost[];
    /** Kept a secret whatever is passed. */
    privateKey: pulumi.Input<string>;
}

/** The NB groups the stack's resources own: none in ovnkube mode, where ovnkube writes NB. */
export function ownedGroups(model: ClusterModel): OwnedGroup[] {
    if (model.writer !== "pulumi") return [];
    return [
        { type: clusterRouterKind.type, group: clusterRouterKind.group({ router: model.clusterRouter } as never) },
        ...model.nodeNetworks.map((network) => ({ type: nodeSwitchKind.type, group: nodeSwitchKind.group({ network } as never) })),
        ...model.gateways.map((gateway) => ({ type: gatewayRouterKind.type, group: gatewayRouterKind.group({ gateway } as never) })),
    ];
}

const refusal = (blockers: string[]) =>
    `destroy stopped before deleting anything: ${blockers.length} blocker(s):\n  - ${blockers.join("\n  - ")}\n` +
    "Remove what is listed (e.g. the pods on the node switches, or bring the hosts back with their pinned keys), then destroy again; `pulumi refresh` shows the list";

export const destroyGuardProvider: pulumi.dynamic.ResourceProvider = {
    async create(inputs: any) {
        return { id: inputs.owner, outs: { ...inputs, blockers: [] } };
    },
    async diff(_id: string, olds: any, news: any) {
        const keys = ["nb", "owner", "groups", "hosts", "privateKey"].filter((k) => JSON.stringify(olds[k]) !== JSON.stringify(news[k]));
        return { changes: keys.length > 0 };
    },
    async update(_id: string, _olds: any, news: any) {
        return { outs: { ...news, blockers: [] } };
    },
    async read(id: string, props: any) {
        return { id, props: { ...props, blockers: await destroyBlockers(props) } };
    },
    async delete(_id: string, props: any) {
        const blockers = await destroyBlockers(props);
        if (blockers.length > 0) throw new Error(refusal(blockers));
    },
};

const provider = providerStub(MODULE, TYPE, destroyGuardProvider);

export class DestroyGuard extends pulumi.dynamic.Resource {
    /** What would stop a destroy, as last read (refresh); [] after create and update. */
    declare readonly blockers: pulumi.Output<string[]>;

    constructor(name: string, args: DestroyGuardArgs, opts?: pulumi.CustomResourceOptions) {
        const props = {
            ...args,
            nb: args.nb === undefined ? undefined : secretConnection(args.nb),
            privateKey: pulumi.secret(args.privateKey),
            blockers: undefined,
        };
        super(provider, name, props, { ...opts, additionalSecretOutputs: [...(opts?.additionalSecretOutputs ?? []), "nb", "privateKey"] }, MODULE, TYPE);
    }
}
