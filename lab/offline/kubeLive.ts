// Live Kubernetes objects seen through what a stack declares. The API server adds defaults,
// metadata (uid, resourceVersion, managedFields) and controllers add status: none of that is
// the stack's, so a refresh must not call it drift. Projecting the live object onto the shape of
// the declared one keeps exactly the declared fields, with their live values: a by-hand edit of
// a declared field shows, server-filled fields do not. Pure: no I/O.
import type { ObjectRef } from "../kubeclient";
import type { Props } from "./values";

const isMap = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/**
 * The parts of `live` under the keys `declared` has, recursively. A declared key missing from
 * the live object stays missing, a live value of another type than the declared one is kept
 * whole, and list elements beyond the declared ones are kept: all three are changes of a declared field.
 */
export function projectOnto(live: unknown, declared: unknown): unknown {
    if (isMap(declared)) {
        if (!isMap(live)) return live;
        const out: Record<string, unknown> = {};
        for (const k of Object.keys(declared)) if (k in live) out[k] = projectOnto(live[k], declared[k]);
        return out;
    }
    if (Array.isArray(declared)) {
        if (!Array.isArray(live)) return live;
        return live.map((x, i) => (i < declared.length ? projectOnto(x, declared[i]) : x));
    }
    return live;
}

interface Meta {
    name?: string;
    namespace?: string;
}

/** Which object a declaration (secrets unwrapped) is; namespaced kinds without a namespace get `defaultNamespace`. */
export function objectRef(plain: Props, defaultNamespace?: string): ObjectRef {
    const meta = (plain.metadata ?? {}) as Meta;
    if (typeof plain.apiVersion !== "string" || typeof plain.kind !== "string" || !meta.name) {
        throw new Error("a Kubernetes object needs apiVersion, kind and metadata.name");
    }
    return { apiVersion: plain.apiVersion, kind: plain.kind, name: meta.name, namespace: meta.namespace ?? defaultNamespace };
}

/** The API group of an apiVersion (`""` for the core group): a version change is the same object, a group change is not. */
export const apiGroup = (apiVersion: string) => (apiVersion.includes("/") ? apiVersion.split("/")[0] : "");

/** Same group, kind, namespace and name: the same object in the API server. */
export function sameObject(a: ObjectRef, b: ObjectRef): boolean {
    return (
        apiGroup(a.apiVersion) === apiGroup(b.apiVersion) &&
        a.kind === b.kind &&
        a.name === b.name &&
        (a.namespace ?? "") === (b.namespace ?? "")
    );
}
