// What `kubectl exec` and `kubectl logs` do, through the API server to the pod's kubelet: exec over
// a WebSocket of the remote command protocol (kubectl's own transport since 1.31), logs as text.
// By hand, not @kubernetes/client-node: the protocol is a channel byte before each message.
import type WebSocket from "ws";
import type { Transport } from "./transport";

/** The remote command protocols, newest first (v5 adds the close signal; the server picks one). */
const EXEC_PROTOCOLS = ["v5.channel.k8s.io", "v4.channel.k8s.io"];
const STDOUT = 1;
const STDERR = 2;
const STATUS = 3;

export interface PodRefArgs {
    namespace: string;
    name: string;
    /** Default: the pod's only container. */
    container?: string;
}

export interface ExecResult {
    stdout: string;
    stderr: string;
    /** The command's exit code, as the kubelet reported it. */
    exitCode: number;
}

interface ExecStatus {
    status?: string;
    message?: string;
    details?: { causes?: Array<{ reason?: string; message?: string }> };
}

/** The exit code a status message reports: 0 on Success, the ExitCode cause otherwise; throws on any other failure. */
function exitCodeOf(status: ExecStatus, what: string): number {
    if (status.status === "Success") return 0;
    const cause = status.details?.causes?.find((c) => c.reason === "ExitCode");
    if (cause?.message !== undefined && /^\d+$/.test(cause.message)) return Number(cause.message);
    throw new Error(`${what}: ${status.message ?? JSON.stringify(status)}`);
}

/** Runs argv in the pod's container and waits for it to end (bounded); no stdin, no terminal. */
export function podExec(transport: Transport, pod: PodRefArgs, argv: readonly string[], timeoutMs = 60_000): Promise<ExecResult> {
    const what = `exec ${argv.join(" ")} in pod ${pod.namespace}/${pod.name}`;
    const path = `/api/v1/namespaces/${encodeURIComponent(pod.namespace)}/pods/${encodeURIComponent(pod.name)}/exec`;
    const socket: WebSocket = transport.openWebSocket(path, EXEC_PROTOCOLS, {
        query: { command: argv, container: pod.container, stdout: true, stderr: true },
    });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    let exitCode: number | undefined;
    let failure: Error | undefined;
    return new Promise<ExecResult>((resolve, reject) => {
        const timer = setTimeout(() => {
            failure = new Error(`${what}: no end within ${timeoutMs} ms`);
            socket.terminate();
        }, timeoutMs);
        socket.on("message", (data: Buffer) => {
            const body = data.subarray(1);
            if (data[0] === STDOUT) out.push(body);
            else if (data[0] === STDERR) err.push(body);
            else if (data[0] === STATUS) {
                try {
                    exitCode = exitCodeOf(JSON.parse(body.toString("utf8")) as ExecStatus, what);
                } catch (e) {
                    failure = e as Error;
                }
            }
        });
        socket.on("unexpected-response", (_req, res) => {
            failure = new Error(`${what}: the API server answered ${res.statusCode} ${res.statusMessage ?? ""}`.trim());
            socket.terminate();
        });
        socket.on("error", (e) => (failure ??= new Error(`${what}: ${e.message}`)));
        socket.on("close", () => {
            clearTimeout(timer);
            if (failure) return reject(failure);
            if (exitCode === undefined) return reject(new Error(`${what}: the stream closed without an exit status`));
            resolve({ stdout: Buffer.concat(out).toString("utf8"), stderr: Buffer.concat(err).toString("utf8"), exitCode });
        });
    });
}

/** The container's log, as the kubelet serves it. */
export function podLogs(transport: Transport, pod: PodRefArgs): Promise<string> {
    const path = `/api/v1/namespaces/${encodeURIComponent(pod.namespace)}/pods/${encodeURIComponent(pod.name)}/log`;
    return transport.requestText("GET", path, { query: { container: pod.container } });
}
