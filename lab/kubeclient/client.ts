// A small Kubernetes REST client: the handful of verbs the local control plane and the offline
// engine need (get, list, create, patch in its three flavours plus server-side apply, delete,
// bounded waits), over node's https with discovery of resource paths.
//
// Why not @kubernetes/client-node: it brings a generated client for every API group (and undici)
// when the lab and the offline engine need a handful of REST verbs.
import { Discovery, groupVersionPath, type ApiResource } from "./discovery";
import { isNotFound } from "./errors";
import { loadKubeconfig, parseKubeconfig, type KubeconfigOptions, type KubeCredentials } from "./kubeconfig";
import { pollUntil } from "./poll";
import { podExec, podLogs, type ExecResult, type PodRefArgs } from "./podStreams";
import { createTransport, type RequestOptions, type Transport } from "./transport";

export interface ObjectMeta {
    name?: string;
    namespace?: string;
    uid?: string;
    resourceVersion?: string;
    deletionTimestamp?: string;
    finalizers?: string[];
    labels?: Record<string, string>;
    annotations?: Record<string, string>;
    managedFields?: Array<{ manager?: string; operation?: string; fieldsV1?: unknown; [k: string]: unknown }>;
    [key: string]: unknown;
}

export interface KubeObject {
    apiVersion: string;
    kind: string;
    metadata: ObjectMeta;
    [key: string]: unknown;
}

/** Which object: apiVersion and kind select the resource, name and namespace the object. */
export interface ObjectRef {
    apiVersion: string;
    kind: string;
    name: string;
    /** Ignored for cluster-scoped kinds; `default` when omitted for namespaced ones (as kubectl). */
    namespace?: string;
}

/** merge = RFC 7386 JSON merge patch, strategic = Kubernetes strategic merge, json = RFC 6902. */
export type PatchType = "merge" | "strategic" | "json";

const PATCH_CONTENT_TYPES: Record<PatchType | "apply", string> = {
    merge: "application/merge-patch+json",
    strategic: "application/strategic-merge-patch+json",
    json: "application/json-patch+json",
    apply: "application/apply-patch+yaml",
};

export interface WriteOptions {
    /** Recorded in managedFields; required by server-side apply. */
    fieldManager?: string;
    /** Validate and default on the server without persisting (dryRun=All). */
    dryRun?: boolean;
}

export interface PatchOptions extends WriteOptions {
    /** A subresource such as `status` (a kubelet reports its Node's conditions there). */
    subresource?: string;
}

export interface ApplyOptions extends WriteOptions {
    fieldManager: string;
    /** Take over fields another manager owns instead of failing with a conflict. */
    force?: boolean;
    /** Namespace of a namespaced object that names none in its metadata (default `default`). */
    namespace?: string;
}

export interface ListOptions {
    namespace?: string;
    labelSelector?: string;
    fieldSelector?: string;
}

export interface DeleteOptions {
    /** Background (default of the API for most kinds), Foreground or Orphan. */
    propagationPolicy?: "Background" | "Foreground" | "Orphan";
    gracePeriodSeconds?: number;
}

/**
 * A path segment the API accepts as an object name or namespace (its own rule: not empty, not
 * `.` or `..`, no `/` or `%`); refused before any path is built, then percent-encoded.
 */
function checkName(value: string, what: string): string {
    if (!value || value === "." || value === ".." || /[/%]/.test(value) || value.length > 253) {
        throw new Error(`invalid ${what} ${JSON.stringify(value)}: not empty, not . or .., without / or %`);
    }
    return encodeURIComponent(value);
}

export class KubeClient {
    readonly discovery: Discovery;

    constructor(readonly transport: Transport) {
        this.discovery = new Discovery(transport);
    }

    static fromCredentials(creds: KubeCredentials): KubeClient {
        return new KubeClient(createTransport(creds));
    }

    /** From kubeconfig text (e.g. the secret config key `kubeconfig`). */
    static fromKubeconfig(text: string, opts?: KubeconfigOptions): KubeClient {
        return KubeClient.fromCredentials(parseKubeconfig(text, opts));
    }

    static fromKubeconfigFile(file: string, opts?: { context?: string }): KubeClient {
        return KubeClient.fromCredentials(loadKubeconfig(file, opts));
    }

    get server(): string {
        return this.transport.server;
    }

    /** GET of any path that answers JSON (/version, /api, a raw resource path). */
    getPath<T = unknown>(path: string, opts?: RequestOptions): Promise<T> {
        return this.transport.request<T>("GET", path, opts);
    }

    /** The resource path of a kind, optionally in a namespace, optionally of one object. */
    async resourcePath(
        apiVersion: string,
        kind: string,
        namespace?: string,
        name?: string,
    ): Promise<{ path: string; resource: ApiResource }> {
        const resource = await this.discovery.resourceFor(apiVersion, kind);
        let path = groupVersionPath(apiVersion);
        if (resource.namespaced && namespace !== "") path += `/namespaces/${checkName(namespace ?? "default", "namespace")}`;
        path += `/${resource.name}`;
        if (name !== undefined) path += `/${checkName(name, `${kind} name`)}`;
        return { path, resource };
    }

    private async objectPath(ref: ObjectRef): Promise<string> {
        return (await this.resourcePath(ref.apiVersion, ref.kind, ref.namespace, ref.name)).path;
    }

    get(ref: ObjectRef): Promise<KubeObject> {
        return this.objectPath(ref).then((p) => this.transport.request<KubeObject>("GET", p));
    }

    /** The object, or undefined when it does not exist. */
    async tryGet(ref: ObjectRef): Promise<KubeObject | undefined> {
        try {
            return await this.get(ref);
        } catch (e) {
            if (isNotFound(e)) return undefined;
            throw e;
        }
    }

    /** Objects of a kind; namespaced kinds: in `namespace`, or in every namespace when it is omitted. */
    async list(apiVersion: string, kind: string, opts: ListOptions = {}): Promise<KubeObject[]> {
        const { path } = await this.resourcePath(apiVersion, kind, opts.namespace ?? "");
        const list = await this.transport.request<{ items: Array<Omit<KubeObject, "apiVersion" | "kind">> }>("GET", path, {
            query: { labelSelector: opts.labelSelector, fieldSelector: opts.fieldSelector },
        });
        // List items come without apiVersion and kind; give them back so each item stands alone.
        return list.items.map((item) => ({ ...item, apiVersion, kind }) as KubeObject);
    }

    async create(obj: KubeObject, opts: WriteOptions = {}): Promise<KubeObject> {
        const { path } = await this.resourcePath(obj.apiVersion, obj.kind, obj.metadata?.namespace);
        return this.transport.request<KubeObject>("POST", path, { body: obj, query: writeQuery(opts) });
    }

    async patch(ref: ObjectRef, patch: unknown, type: PatchType, opts: PatchOptions = {}): Promise<KubeObject> {
        const sub = opts.subresource ? `/${checkName(opts.subresource, "subresource")}` : "";
        return this.transport.request<KubeObject>("PATCH", (await this.objectPath(ref)) + sub, {
            body: patch,
            contentType: PATCH_CONTENT_TYPES[type],
            query: writeQuery(opts),
        });
    }

    /**
     * Server-side apply: the object is the manager's whole intent; fields it no longer lists are
     * removed if this manager alone owned them. Creates the object when it does not exist.
     */
    async apply(obj: KubeObject, opts: ApplyOptions): Promise<KubeObject> {
        const name = obj.metadata?.name;
        if (!name) throw new Error(`server-side apply of a ${obj.kind} needs metadata.name`);
        return this.transport.request<KubeObject>(
            "PATCH",
            await this.objectPath({ ...obj, name, namespace: obj.metadata.namespace ?? opts.namespace }),
            {
                body: obj,
                contentType: PATCH_CONTENT_TYPES.apply,
                query: { ...writeQuery(opts), force: opts.force ? true : undefined },
            },
        );
    }

    /** Deletes the object; false when it did not exist. Finalizers may keep it for a while: see waitUntilGone. */
    async delete(ref: ObjectRef, opts: DeleteOptions = {}): Promise<boolean> {
        try {
            await this.transport.request("DELETE", await this.objectPath(ref), {
                body: { apiVersion: "v1", kind: "DeleteOptions", ...opts },
            });
            return true;
        } catch (e) {
            if (isNotFound(e)) return false;
            throw e;
        }
    }

    /** Waits, bounded, until the object no longer exists; the error tells what still holds it. */
    async waitUntilGone(ref: ObjectRef, timeoutMs: number): Promise<void> {
        let last: KubeObject | undefined;
        try {
            await pollUntil(
                async () => {
                    last = await this.tryGet(ref);
                    return last === undefined ? true : undefined;
                },
                { timeoutMs, what: `${describeRef(ref)} to be deleted` },
            );
        } catch (e) {
            throw new Error(`${(e as Error).message}${last ? `; it is ${finalizingState(last)}` : ""}`);
        }
    }

    /** Runs argv in a pod's container through the API server and its kubelet, as `kubectl exec` does. */
    exec(pod: PodRefArgs, argv: readonly string[], timeoutMs?: number): Promise<ExecResult> {
        return podExec(this.transport, pod, argv, timeoutMs);
    }

    /** A container's log through the API server and its kubelet, as `kubectl logs` reads it. */
    logs(pod: PodRefArgs): Promise<string> {
        return podLogs(this.transport, pod);
    }

    /** Closes kept-alive connections (the process can also just exit: idle sockets do not hold it). */
    close(): void {
        this.transport.close();
    }
}

function writeQuery(opts: WriteOptions): Record<string, string | undefined> {
    return { fieldManager: opts.fieldManager, dryRun: opts.dryRun ? "All" : undefined };
}

export function describeRef(ref: ObjectRef): string {
    return `${ref.kind} ${ref.namespace ? `${ref.namespace}/` : ""}${ref.name}`;
}

/** Why an object is still there: its deletion timestamp, finalizers and (for a Namespace) conditions. */
export function finalizingState(obj: KubeObject): string {
    const parts: string[] = [];
    if (obj.metadata.deletionTimestamp) parts.push(`terminating since ${obj.metadata.deletionTimestamp}`);
    else parts.push("not marked for deletion");
    const finalizers = [...(obj.metadata.finalizers ?? []), ...((obj.spec as { finalizers?: string[] } | undefined)?.finalizers ?? [])];
    if (finalizers.length) parts.push(`finalizers ${finalizers.join(", ")}`);
    const conditions = (
        (obj.status as { conditions?: Array<{ type: string; status: string; message?: string }> } | undefined)?.conditions ?? []
    )
        .filter((c) => c.status === "True")
        .map((c) => `${c.type}: ${c.message ?? ""}`.trim());
    if (conditions.length) parts.push(conditions.join("; "));
    return parts.join("; ");
}
