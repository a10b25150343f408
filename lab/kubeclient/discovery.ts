// API discovery: which resource (plural) serves an apiVersion+kind and whether it is namespaced,
// read from GET /api/v1 or /apis/<group>/<version> once per group version and cached, as kubectl
// does; nothing is hard-coded, so custom resources work too.
import type { Transport } from "./transport";

export interface ApiResource {
    /** The plural used in paths, e.g. `daemonsets`. */
    name: string;
    namespaced: boolean;
    kind: string;
    verbs?: string[];
}

interface ApiResourceList {
    resources: ApiResource[];
}

/** /api/v1 for the core group, /apis/<group>/<version> otherwise. */
export function groupVersionPath(apiVersion: string): string {
    if (!/^([a-z0-9.-]+\/)?v[0-9a-z]+$/.test(apiVersion)) throw new Error(`invalid apiVersion ${JSON.stringify(apiVersion)}`);
    return apiVersion.includes("/") ? `/apis/${apiVersion}` : `/api/${apiVersion}`;
}

export class Discovery {
    private readonly cache = new Map<string, Promise<ApiResource[]>>();

    constructor(private readonly transport: Transport) {}

    /** The resources of one group version (without subresources such as `pods/status`). */
    resources(apiVersion: string): Promise<ApiResource[]> {
        let found = this.cache.get(apiVersion);
        if (!found) {
            found = this.transport
                .request<ApiResourceList>("GET", groupVersionPath(apiVersion))
                .then((list) => list.resources.filter((r) => !r.name.includes("/")));
            // A failed lookup (server not ready, group not installed yet) is not remembered.
            found.catch(() => this.cache.delete(apiVersion));
            this.cache.set(apiVersion, found);
        }
        return found;
    }

    async resourceFor(apiVersion: string, kind: string): Promise<ApiResource> {
        let list: ApiResource[];
        try {
            list = await this.resources(apiVersion);
        } catch (e) {
            throw new Error(
                `discovery of ${apiVersion} on ${this.transport.server} failed (is the API group installed?): ${(e as Error).message}`,
            );
        }
        const r = list.find((x) => x.kind === kind);
        if (!r)
            throw new Error(
                `${this.transport.server} serves no kind ${kind} in ${apiVersion} (kinds: ${list.map((x) => x.kind).join(", ")})`,
            );
        return r;
    }

    /** Forgets everything, e.g. after a CustomResourceDefinition was installed. */
    invalidate(): void {
        this.cache.clear();
    }
}
