// One HTTP(S) round trip to an API server with the kubeconfig's credentials. The token travels
// only in the Authorization header; it never appears in an error, a log line or a URL.
import * as http from "node:http";
import * as https from "node:https";
import WebSocket from "ws";
import { KubeApiError, type KubeStatus } from "./errors";
import type { KubeCredentials } from "./kubeconfig";

export interface RequestOptions {
    /** An array value repeats the parameter (exec's `command`). */
    query?: Record<string, string | number | boolean | readonly string[] | undefined>;
    /** Sent as JSON (every Kubernetes patch type, also apply-patch+yaml, accepts JSON text). */
    body?: unknown;
    contentType?: string;
    /** Milliseconds before the request is abandoned (default 30 s). */
    timeoutMs?: number;
}

export interface Transport {
    /** Sends the request; resolves with the parsed JSON body of a 2xx answer, throws KubeApiError otherwise. */
    request<T = unknown>(method: string, path: string, opts?: RequestOptions): Promise<T>;
    /** The same for endpoints that answer plain text (/readyz, /livez). */
    requestText(method: string, path: string, opts?: RequestOptions): Promise<string>;
    /** A WebSocket to a streaming subresource (exec), with the same credentials, offering `protocols`. */
    openWebSocket(path: string, protocols: readonly string[], opts?: Pick<RequestOptions, "query">): WebSocket;
    /** The server's URL, for messages. */
    readonly server: string;
    /** Closes kept-alive connections. */
    close(): void;
}

function queryString(query: RequestOptions["query"]): string {
    const params = new URLSearchParams();
    for (const [k, v] of Object.entries(query ?? {})) {
        if (Array.isArray(v)) for (const item of v) params.append(k, item);
        else if (v !== undefined) params.set(k, String(v));
    }
    const s = params.toString();
    return s ? `?${s}` : "";
}

function parseStatus(text: string): KubeStatus | undefined {
    try {
        const o = JSON.parse(text) as KubeStatus;
        return o && o.kind === "Status" ? o : undefined;
    } catch {
        return undefined;
    }
}

export function createTransport(creds: KubeCredentials): Transport {
    const url = new URL(creds.server);
    const secure = url.protocol === "https:";
    const agent = secure
        ? new https.Agent({
              keepAlive: true,
              ca: creds.caPem,
              cert: creds.certPem,
              key: creds.keyPem,
              rejectUnauthorized: !creds.insecureSkipTlsVerify,
          })
        : new http.Agent({ keepAlive: true });
    const basePath = url.pathname.replace(/\/+$/, "");

    function send(method: string, path: string, opts: RequestOptions = {}): Promise<string> {
        const body = opts.body === undefined ? undefined : Buffer.from(JSON.stringify(opts.body), "utf8");
        const headers: Record<string, string | number> = { Accept: "application/json" };
        if (creds.token) headers.Authorization = `Bearer ${creds.token}`;
        if (body) {
            headers["Content-Type"] = opts.contentType ?? "application/json";
            headers["Content-Length"] = body.length;
        }
        const timeoutMs = opts.timeoutMs ?? 30_000;
        return new Promise<string>((resolve, reject) => {
            const req = (secure ? https : http).request(
                {
                    protocol: url.protocol,
                    hostname: url.hostname.replace(/^\[|\]$/g, ""),
                    port: url.port || (secure ? 443 : 80),
                    method,
                    path: basePath + path + queryString(opts.query),
                    headers,
                    agent,
                },
                (res) => {
                    const chunks: Buffer[] = [];
                    res.on("data", (c: Buffer) => chunks.push(c));
                    res.on("error", (e) => reject(new Error(`${method} ${path} on ${creds.server}: ${e.message}`)));
                    res.on("end", () => {
                        const text = Buffer.concat(chunks).toString("utf8");
                        const code = res.statusCode ?? 0;
                        if (code < 200 || code > 299) return reject(new KubeApiError(method, path, code, parseStatus(text), text));
                        resolve(text);
                    });
                },
            );
            req.setTimeout(timeoutMs, () => req.destroy(new Error(`no answer within ${timeoutMs} ms`)));
            req.on("error", (e) => reject(new Error(`${method} ${path} on ${creds.server}: ${e.message}`)));
            req.end(body);
        });
    }

    async function request<T>(method: string, path: string, opts?: RequestOptions): Promise<T> {
        const text = await send(method, path, opts);
        try {
            return (text ? JSON.parse(text) : undefined) as T;
        } catch {
            throw new Error(`${method} ${path} on ${creds.server}: answer is not JSON: ${text.slice(0, 200)}`);
        }
    }

    function openWebSocket(path: string, protocols: readonly string[], opts: Pick<RequestOptions, "query"> = {}): WebSocket {
        const wsUrl = new URL(basePath + path + queryString(opts.query), creds.server);
        wsUrl.protocol = secure ? "wss:" : "ws:";
        return new WebSocket(wsUrl, [...protocols], {
            headers: creds.token ? { Authorization: `Bearer ${creds.token}` } : {},
            ca: creds.caPem,
            cert: creds.certPem,
            key: creds.keyPem,
            rejectUnauthorized: !creds.insecureSkipTlsVerify,
        });
    }

    return { request, requestText: send, openWebSocket, server: creds.server, close: () => agent.destroy() };
}
