// kubernetes:* objects in a real API server, carried out as pulumi-kubernetes does in its
// server-side apply mode: create (of an object not there yet, unless the provider upserts) and
// update are server-side applies under one field manager
// (kept in the outputs as `__fieldManager`, like the provider does); diff asks the server what
// an apply would make of the object now (a dry run) and compares that with what was recorded, so
// server defaults and normalised values (500m for 0.5) are never a change; read projects the
// live object onto the declared fields (see ../kubeLive.ts); delete removes the object with
// foreground propagation and waits until it is gone (a Namespace until its controller has
// emptied it). A *Patch resource (NodePatch, …) only holds fields of an object others own:
// deleting it gives its fields up, the object stays.
import type { KubeObject } from "../../kubeclient";
import { objectRef, projectOnto, sameObject } from "../kubeLive";
import type { KubeTarget } from "../kubeTarget";
import type { StateResource } from "../state";
import { annotateSecrets, changedKeys, type Props } from "../values";
import { IDENTITY_KEYS, plain } from "./kubernetesManifests";
import type { DiffResult, HandlerContext } from "./types";

/** Where the field manager's name is kept in a resource's outputs (pulumi-kubernetes' own key). */
export const FIELD_MANAGER_KEY = "__fieldManager";
/** The API's limit on a field manager's name. */
const FIELD_MANAGER_MAX = 128;

/** pulumi-kubernetes' annotations that steer how an object is applied and awaited. */
const ANNOTATION = {
    fieldManager: "pulumi.com/patchFieldManager",
    force: "pulumi.com/patchForce",
    timeoutSeconds: "pulumi.com/timeoutSeconds",
};
/** pulumi-kubernetes waits this long for a deletion unless the object says otherwise. */
const DEFAULT_DELETE_TIMEOUT_S = 300;

/** `kubernetes:core/v1:NodePatch` and the like: a partial object applied onto one that exists elsewhere. */
export const isPatchType = (type: string) => /Patch$/.test(type.split(":")[2] ?? "");

const annotationsOf = (inputs: Props) => ((plain(inputs).metadata ?? {}) as { annotations?: Record<string, string> }).annotations ?? {};

/**
 * The field manager of an object: the `pulumi.com/patchFieldManager` annotation, else the one
 * recorded when it was created, else `pulumi-kubernetes-<project>-<stack>`. pulumi-kubernetes
 * makes up a random `pulumi-kubernetes-<hex>` per resource instead; naming the stack tells an
 * operator reading managedFields which stack owns which field.
 */
export function fieldManagerFor(ctx: Pick<HandlerContext, "project" | "stack">, inputs: Props, oldOutputs?: Props): string {
    const recorded = oldOutputs?.[FIELD_MANAGER_KEY];
    const name =
        annotationsOf(inputs)[ANNOTATION.fieldManager] ||
        (typeof recorded === "string" && recorded) ||
        `pulumi-kubernetes-${ctx.project}-${ctx.stack}`;
    return name.slice(0, FIELD_MANAGER_MAX);
}

/**
 * Whether an apply takes over fields another manager holds. A whole object is the stack's: a
 * field someone changed by hand is drift that `up` puts back, not a conflict to stop at
 * (pulumi-kubernetes asks for `pulumi.com/patchForce` even there). A patch shares its object with
 * other owners, so as in pulumi-kubernetes it forces only when its `pulumi.com/patchForce` says so.
 */
export function forceFor(type: string, inputs: Props): boolean {
    return !isPatchType(type) || annotationsOf(inputs)[ANNOTATION.force] === "true";
}

function deleteTimeoutMs(inputs: Props): number {
    const s = Number(annotationsOf(inputs)[ANNOTATION.timeoutSeconds]);
    return (Number.isFinite(s) && s > 0 ? s : DEFAULT_DELETE_TIMEOUT_S) * 1000;
}

export function kubernetesApi(ctx: HandlerContext) {
    async function apply(target: KubeTarget, type: string, inputs: Props, fieldManager: string, dryRun: boolean): Promise<Props> {
        const declared = plain(inputs);
        const live = await target.client.apply(declared as unknown as KubeObject, {
            fieldManager,
            force: forceFor(type, inputs),
            dryRun,
            namespace: target.defaultNamespace,
        });
        return { ...(projectOnto(live, declared) as Props), [FIELD_MANAGER_KEY]: fieldManager };
    }

    return {
        async diff(target: KubeTarget, type: string, old: StateResource, inputs: Props): Promise<DiffResult> {
            const inputKeys = changedKeys(old.inputs, inputs);
            if (!sameObject(objectRef(plain(old.inputs), target.defaultNamespace), objectRef(plain(inputs), target.defaultNamespace))) {
                return {
                    changes: true,
                    keys: inputKeys,
                    replaceKeys: inputKeys.filter((k) => IDENTITY_KEYS.includes(k)),
                    deleteBeforeReplace: false,
                };
            }
            const would = await apply(target, type, inputs, fieldManagerFor(ctx, inputs, old.outputs), true);
            const keys = [...new Set([...inputKeys, ...changedKeys(old.outputs, would, [FIELD_MANAGER_KEY])])].sort();
            return { changes: keys.length > 0, keys, replaceKeys: [], deleteBeforeReplace: false };
        },
        async create(target: KubeTarget, type: string, inputs: Props): Promise<Props> {
            // From 4.29.0 pulumi-kubernetes creates a whole object only if it is not there
            // (await.go Creation, v4.32.0 lines 190-291): an object a killed up had made is refused
            // as AlreadyExists, unless the provider sets upsertExistingObjects. Its client-side
            // create (fieldManager "pulumi-kubernetes", moved to the stack's at the first update)
            // stands here as a server-side apply: the same object, one manager from the start.
            if (!isPatchType(type) && !target.upsertExistingObjects) {
                const ref = objectRef(plain(inputs), target.defaultNamespace);
                if (await target.client.tryGet(ref))
                    throw new Error(
                        `${ref.kind} ${ref.namespace ? `${ref.namespace}/` : ""}${ref.name} already exists in the cluster: ` +
                            "set upsertExistingObjects on the provider to allow server-side apply to update existing objects on create",
                    );
            }
            return apply(target, type, inputs, fieldManagerFor(ctx, inputs), false);
        },
        update(target: KubeTarget, type: string, old: StateResource, inputs: Props): Promise<Props> {
            return apply(target, type, inputs, fieldManagerFor(ctx, inputs, old.outputs), false);
        },
        async remove(target: KubeTarget, old: StateResource): Promise<void> {
            const declared = plain(old.inputs);
            const ref = objectRef(declared, target.defaultNamespace);
            if (isPatchType(old.type)) {
                // An apply that names only the object gives up every field this manager held.
                const bare = { apiVersion: ref.apiVersion, kind: ref.kind, metadata: { name: ref.name } } as KubeObject;
                if (await target.client.tryGet(ref))
                    await target.client.apply(bare, {
                        fieldManager: fieldManagerFor(ctx, old.inputs, old.outputs),
                        namespace: ref.namespace,
                    });
                return;
            }
            if (!(await target.client.delete(ref, { propagationPolicy: "Foreground" }))) return;
            await target.client.waitUntilGone(ref, deleteTimeoutMs(old.inputs));
        },
        async read(target: KubeTarget, old: StateResource): Promise<{ id?: string; outputs: Props } | undefined> {
            const declared = plain(old.inputs);
            const live = await target.client.tryGet(objectRef(declared, target.defaultNamespace));
            if (!live) return undefined;
            const outputs = { ...(projectOnto(live, declared) as Props), [FIELD_MANAGER_KEY]: old.outputs[FIELD_MANAGER_KEY] };
            return { id: old.id, outputs: annotateSecrets(outputs, old.outputs) };
        },
    };
}
