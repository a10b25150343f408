// Errors of the Kubernetes API, carrying what the API server said (its Status object) and which
// object path was asked for, so that a message names both the object and the reason.

/** The fields of a metav1.Status that matter to callers. */
export interface KubeStatus {
    kind?: string;
    status?: string;
    message?: string;
    reason?: string;
    code?: number;
    details?: { causes?: Array<{ field?: string; message?: string; reason?: string }> };
}

export class KubeApiError extends Error {
    /** HTTP status code (404, 409, 422, …). */
    readonly statusCode: number;
    /** The Status reason (NotFound, AlreadyExists, Invalid, Forbidden, Conflict, …) when the server sent one. */
    readonly reason?: string;
    readonly method: string;
    /** The request path without the query, e.g. /api/v1/namespaces/x/configmaps/y. */
    readonly path: string;
    readonly status?: KubeStatus;

    constructor(method: string, path: string, statusCode: number, status: KubeStatus | undefined, bodyText: string) {
        const said = status?.message ?? bodyText.trim().slice(0, 500) ?? "";
        super(`${method} ${path}: ${statusCode}${status?.reason ? ` ${status.reason}` : ""}${said ? `: ${said}` : ""}`);
        this.name = "KubeApiError";
        this.statusCode = statusCode;
        this.reason = status?.reason;
        this.method = method;
        this.path = path;
        this.status = status;
    }
}

export const isNotFound = (e: unknown): boolean => e instanceof KubeApiError && e.statusCode === 404;
export const isConflict = (e: unknown): boolean => e instanceof KubeApiError && e.statusCode === 409;
