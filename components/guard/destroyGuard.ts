// DestroyGuard: makes a destroy check first. The cluster creates it last, depending on every
// resource it created (a component in dependsOn stands for all its descendants, in the SDK and in
// the engine), so a destroy deletes it first and alone. Its inputs list the stack's NB groups and
// hosts; whatever would block the deletes of the groups and hosts that go (./blockers) makes it
// refuse, listing every blocker, before anything else is deleted:
// - delete (destroy): everything goes;
// - diff (preview and `up`): the groups and hosts the new inputs no longer list go; a host renamed
//   in place is refused outright (./renames), and so are a clustered central shrinking to one
//   (../hosts/centralMembership) and an ovnkube release going back or changing architecture
//   (./releaseChanges). The ChangeGuard (./changeGuard), the same provider
//   registered first, asks this before any step; here it is asked again after every other
//   registration, and still before any delete of a removed resource: the Pulumi engine generates
//   those deletes only once the program has finished registering (its step generator's deletes
//   come last; `pulumi up` deletes removed resources at the end of the update), and so does the
//   offline engine (offline/deploy.ts). The offline destroy preview asks it too, with inputs that
//   list nothing.
// The guard has no live state of its own: `read` returns what was recorded, so a refresh never
// reports it as drifted while pods (which are blockers) sit on the node switches, as they always
// do on a working cluster.
// State holds only the provider's stub (../dynamic/stub): the installed package runs this code.
import * as pulumi from "@pulumi/pulumi";
import { providerStub } from "../dynamic/stub";
import { PackageResource } from "../dynamic/resource";
import { sshKeyOf, sshKeyProps, type SshKeyInput } from "../dynamic/providerConfig";
import type { ClusterModel } from "../model/types";
import { NB_KIND_LIST } from "../nb/kinds";
import { nbConnectionInput, type NbConnectionArgs } from "../nb/resources/nbResource";
import {
    ovnkubeNodesRemovedBy,
    removalBlockers,
    removedBy,
    type GuardedHost,
    type GuardScope,
    type OvnkubeNodeRecord,
    type OwnedGroup,
} from "./blockers";
import { hostRenames, renameRefusal } from "./renames";
import { centralShrinkRefusal } from "../hosts/centralMembership";
import { releaseChangeRefusal, type RecordedRelease } from "./releaseChanges";
import { expandRecord, recordHosts, recordOvnkubeNodes, sharedSsh, type RecordedScope } from "./record";

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
    /** The central hosts: a clustered central must not shrink to one in place. */
    centrals: string[];
    /** ovnkube mode: every node and the NB where ovnkube keeps it (a node leaves the stack only once ovnkube has let it go). */
    ovnkubeNodes?: pulumi.Input<OvnkubeNodeRecord[]>;
    /** ovnkube mode's release and architecture: neither goes back nor changes architecture in place. */
    ovnkube?: RecordedRelease;
}

/** The guard's arguments: the stack's scope and its SSH key, named by its config key (the state then holds none) or carried as a secret. */
export type DestroyGuardInputs = DestroyGuardArgs & SshKeyInput;

/** The NB groups the stack's resources own: none in ovnkube mode, where ovnkube writes NB. */
export function ownedGroups(model: ClusterModel): OwnedGroup[] {
    if (model.writer !== "pulumi") return [];
    return NB_KIND_LIST.flatMap((kind) => kind.instances(model).map((i) => ({ type: kind.type, group: kind.group(i.inputs) })));
}

const EVERYTHING = { groups: [], hosts: [] };

/** A guard's inputs or outputs as stored. */
type GuardRecord = Omit<GuardScope, "hosts" | "ovnkubeNodes"> & RecordedScope;

/** Why a change stops, with every blocker and what to do; `what` is the change (a destroy, a removal). */
export function refusalText(what: string, blockers: readonly string[]): string {
    return (
        `${what} stopped before deleting anything: ${blockers.length} blocker(s):\n  - ${blockers.join("\n  - ")}\n` +
        "Remove what is listed (drain the nodes: delete their pods, e.g. `kubectl drain <node> --delete-emptydir-data --ignore-daemonsets` " +
        "or the demo's `npm run demo -- --remove-pods`; bring the hosts back with their pinned keys), then run it again"
    );
}

/** The change from `olds` to `news` (a destroy when `news` lists nothing), refused with every blocker. */
export async function checkRemoval(
    olds: GuardScope,
    news: Pick<GuardScope, "groups" | "hosts" | "nb" | "ovnkubeNodes" | "privateKey" | "privateKeyConfig">,
): Promise<void> {
    const removing = { ...removedBy(olds, news), ovnkubeNodes: ovnkubeNodesRemovedBy(olds, news) };
    if (removing.groups.length === 0 && removing.hosts.length === 0 && removing.ovnkubeNodes.names.length === 0) return;
    // Reached with the new connection and key: a key rotated in the same `up` is the one that works.
    // State written before the key was named carries the key itself: sshKeyOf reads either.
    const keyed = news.privateKey !== undefined || news.privateKeyConfig !== undefined ? news : olds;
    const blockers = await removalBlockers({ ...olds, nb: news.nb ?? olds.nb, privateKey: sshKeyOf(keyed) }, removing);
    if (blockers.length === 0) return;
    const destroy = news.groups.length === 0 && news.hosts.length === 0;
    const nodes = removing.ovnkubeNodes.names.filter((n) => !removing.hosts.some((h) => h.name === n)).map((n) => `node ${n}`);
    const names = [...removing.groups.map((g) => g.group), ...nodes, ...removing.hosts.map((h) => `host ${h.name}`)];
    throw new Error(refusalText(destroy ? "destroy" : `removing ${names.join(", ")}`, blockers));
}

export const destroyGuardProvider: pulumi.dynamic.ResourceProvider = {
    async create(inputs: any) {
        return { id: inputs.owner, outs: inputs };
    },
    async diff(_id: string, recordedOlds: any, recordedNews: any) {
        const [olds, news] = [expandRecord<GuardRecord>(recordedOlds), expandRecord<GuardRecord>(recordedNews)];
        const renames = hostRenames(olds.hosts, news.hosts);
        if (renames.length > 0) throw new Error(renameRefusal(renames));
        const shrink = centralShrinkRefusal(recordedOlds.centrals, recordedNews.centrals ?? []);
        if (shrink) throw new Error(shrink);
        const release = releaseChangeRefusal(recordedOlds.ovnkube, recordedNews.ovnkube);
        if (release) throw new Error(release);
        await checkRemoval(olds, news);
        // The records compared as stored: one written before `sshShared` differs, so it is rewritten (an update).
        const keys = [
            "nb",
            "owner",
            "groups",
            "sshShared",
            "hosts",
            "centrals",
            "ovnkube",
            "ovnkubeNodes",
            "privateKey",
            "privateKeyConfig",
        ].filter((k) => JSON.stringify(recordedOlds[k]) !== JSON.stringify(recordedNews[k]));
        return { changes: keys.length > 0 };
    },
    async update(_id: string, _olds: any, news: any) {
        return { outs: news };
    },
    async read(id: string, props: any) {
        return { id, props };
    },
    async delete(_id: string, props: any) {
        const recorded = expandRecord<GuardRecord>(props);
        await checkRemoval(recorded, { ...recorded, ...EVERYTHING });
    },
};

/**
 * The guards' inputs as registered: hosts and ovnkube nodes as ./record keeps them, a carried key
 * kept secret, the connection secret when it carries one.
 */
export function guardProps(args: DestroyGuardInputs) {
    const {
        privateKey: _key,
        privateKeyConfig: _config,
        ...scope
    } = args as DestroyGuardArgs & { privateKey?: unknown; privateKeyConfig?: unknown };
    const keyConfig = "privateKeyConfig" in args ? args.privateKeyConfig : undefined;
    const shared = sharedSsh(args.hosts);
    return {
        ...scope,
        nb: args.nb === undefined ? undefined : nbConnectionInput(args.nb),
        ...(shared ? { sshShared: shared } : {}),
        hosts: recordHosts(args.hosts, shared),
        ovnkubeNodes:
            args.ovnkubeNodes === undefined
                ? undefined
                : pulumi.output(args.ovnkubeNodes).apply((nodes) => recordOvnkubeNodes(nodes, args.hosts, shared, keyConfig)),
        ...sshKeyProps(args).props,
    };
}

export const guardOptions = (args: SshKeyInput, opts?: pulumi.CustomResourceOptions): pulumi.CustomResourceOptions => ({
    ...opts,
    additionalSecretOutputs: [...(opts?.additionalSecretOutputs ?? []), "nb", ...sshKeyProps(args).secretOutputs],
});

const provider = providerStub(MODULE, TYPE, destroyGuardProvider);

export class DestroyGuard extends PackageResource {
    constructor(name: string, args: DestroyGuardInputs, opts?: pulumi.CustomResourceOptions) {
        super(provider, name, guardProps(args), guardOptions(args, opts));
    }
}
