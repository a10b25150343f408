// Error text for operators, rebuilt when the closure serializer has eaten it.
//
// Why: Pulumi's closure serializer rewrites `class X extends Error` into a plain function that
// calls `Error.call(this, message)`, which initializes nothing. Errors constructed by serialized
// code (the ssh and ovsdb layers' error classes) therefore arrive with no message, no stack and
// no Error prototype: only `name` and the fields their constructors assign. This rebuilds a
// message from those fields and from what the resource knows (its SSH target and NB socket),
// and for SSH failures looks once at the port to tell "nothing listens" from "login failed".
import type { SshTarget } from "../../model/sshTarget";
import { hostKeyRefusal } from "../../ssh/hostKey";

export interface ErrorContext {
    ssh?: SshTarget;
    socket?: string;
}

type Fields = Record<string, unknown>;

const where = (ctx: ErrorContext) => (ctx.ssh ? `${ctx.ssh.user}@${ctx.ssh.host}:${ctx.ssh.port}` : "the NB host");
const detail = (e: Fields) => `${e.error ?? ""}${e.details ? `: ${String(e.details)}` : ""}`;

/** "refused" | "timeout" | "open": a TCP connect to the SSH port, used only after a failure. */
function probePort(ssh: SshTarget): Promise<"refused" | "timeout" | "open"> {
    const net = require("net") as typeof import("net");
    return new Promise((resolve) => {
        const socket = net.connect({ host: ssh.host, port: ssh.port });
        const done = (r: "refused" | "timeout" | "open") => {
            socket.destroy();
            resolve(r);
        };
        socket.setTimeout(3000, () => done("timeout"));
        socket.once("connect", () => done("open"));
        socket.once("error", () => done("refused"));
    });
}

async function sshFailure(ctx: ErrorContext, what: string): Promise<string> {
    if (!ctx.ssh) return what;
    const port = await probePort(ctx.ssh);
    if (port === "refused") return `${what}: nothing accepts connections on ${ctx.ssh.host}:${ctx.ssh.port} (is sshd running?)`;
    if (port === "timeout") return `${what}: ${ctx.ssh.host}:${ctx.ssh.port} does not answer`;
    return `${what}: the port answers, so the SSH handshake or login failed (key in the user's authorized_keys?) or the connection dropped`;
}

export async function errorText(err: unknown, ctx: ErrorContext): Promise<string> {
    if (typeof err !== "object" || err === null) return String(err);
    const e = err as Fields;
    if (typeof e.message === "string" && e.message !== "") return e.message;
    const nb = `NB (${ctx.socket ?? "its socket"}) via ${where(ctx)}`;
    switch (e.name) {
        case "SshHostKeyError":
            return (
                (ctx.ssh && hostKeyRefusal(ctx.ssh, String(e.presented))) ??
                `host key of ${where(ctx)} refused: it presented ${String(e.presented)}`
            );
        case "SshError":
            return sshFailure(ctx, `SSH connection to ${where(ctx)} failed`);
        case "SshChannelError":
            return sshFailure(ctx, `SSH ${where(ctx)}: could not open a channel to ${ctx.socket ?? "NB"}`);
        case "OvsdbClosedError":
            return `the session to ${nb} closed before the reply: whether the last transaction was applied is unknown; run again (a create adopts rows already committed)`;
        case "OvsdbOperationError":
            return `OVSDB operation ${String(e.index)} (${String(e.operation)}) failed: ${detail(e)}`;
        case "OvsdbCommitError":
            return `OVSDB transaction not committed: ${detail(e)}`;
        case "OvsdbRpcError":
            return `OVSDB request refused by ${nb}: ${detail(e)}`;
        case "OvsdbError":
            return `cannot reach ${nb}${e.error ? `: ${detail(e)}` : ": the server is not running or the socket path is wrong"}`;
        default:
            return typeof e.name === "string" ? `${e.name}${e.error ? `: ${detail(e)}` : ""}` : String(err);
    }
}
