// command:remote:Command as @pulumi/command 1.2.1's provider carries it out (pulumi-command v1.2.1:
// schema.json, common/inputs.go, remote/commandController.go): create runs `create`; a change of
// `triggers`, its only replace-on-change input, replaces; any other change, the connection
// included, is an update that runs `update`, or `create` when there is none, over the new
// connection; delete runs the state's `delete` with the state's connection, host key and stdin.
// Outputs are the inputs plus stdout and stderr; an update that runs nothing keeps the old ones.
import { randomBytes } from "node:crypto";
import { unwrapSecrets } from "../sdk";
import { sshRun, type SshConnection } from "../ssh";
import type { StateResource } from "../state";
import { changedKeys, type Props } from "../values";
import { inputDiff, type HandlerContext, type ResourceHandler } from "./types";

/** The provider's replace-on-change inputs (`provider:"replaceOnChanges"` in common/inputs.go). */
export const COMMAND_REPLACE_ON = ["triggers"];
const TAIL_LINES = 20;

interface CommandInputs {
    connection?: Partial<SshConnection>;
    create?: string;
    update?: string;
    delete?: string;
    stdin?: string;
    environment?: Record<string, string>;
}

function tail(text: string): string {
    const lines = text.replace(/\s+$/, "").split("\n");
    return lines.slice(-TAIL_LINES).join("\n");
}

async function run(
    ctx: HandlerContext,
    props: Props,
    which: "create" | "update" | "delete",
    script: string,
): Promise<{ stdout: string; stderr: string }> {
    const p = unwrapSecrets(props) as CommandInputs;
    const c = p.connection ?? {};
    if (!c.host) throw new Error(`${which}: connection.host is missing`);
    const conn: SshConnection = {
        host: c.host,
        port: c.port ?? 22,
        user: c.user ?? "root",
        privateKey: c.privateKey,
        password: c.password,
        hostKey: c.hostKey,
    };
    const r = await sshRun(conn, script, ctx.hostKeys, { stdin: p.stdin, env: p.environment }).catch((e: Error) => {
        throw new Error(`${which}: ${e.message}`);
    });
    if (r.code !== 0) {
        // The output tail says why; stdin and the key are never quoted (the engine redacts secrets seen in the output too).
        const how = r.code === null ? `was ended by ${r.signal ?? "a signal"}` : `exited with ${r.code}`;
        const output = tail(r.stderr) || tail(r.stdout);
        throw new Error(`${which} ${how} on ${conn.user}@${conn.host}:${conn.port}${output ? `:\n${output}` : ""}`);
    }
    return { stdout: r.stdout, stderr: r.stderr };
}

export function commandHandler(ctx: HandlerContext): ResourceHandler {
    const scriptOf = (props: Props, key: "create" | "update" | "delete") => {
        const v = unwrapSecrets(props[key]);
        return typeof v === "string" ? v : undefined;
    };
    return {
        async check(reg) {
            return reg.inputs;
        },
        async diff(old, inputs) {
            return inputDiff(changedKeys(old.inputs, inputs), COMMAND_REPLACE_ON);
        },
        async create(reg, inputs) {
            const script = scriptOf(inputs, "create");
            const out = script === undefined ? { stdout: "", stderr: "" } : await run(ctx, inputs, "create", script);
            // The provider's ID is the name plus 8 random hex digits.
            return { id: `${reg.name}${randomBytes(4).toString("hex")}`, outputs: { ...inputs, ...out } };
        },
        async update(old: StateResource, inputs) {
            const which = scriptOf(inputs, "update") !== undefined ? "update" : "create";
            const script = scriptOf(inputs, which);
            const kept = { stdout: old.outputs.stdout ?? "", stderr: old.outputs.stderr ?? "" };
            const out = script === undefined ? kept : await run(ctx, inputs, which, script);
            return { ...inputs, ...out };
        },
        async delete(old) {
            const script = scriptOf(old.outputs, "delete");
            if (script !== undefined) await run(ctx, old.outputs, "delete", script);
        },
        async read(old) {
            // The provider has no read: the stored state stands.
            return { id: old.id, outputs: old.outputs };
        },
    };
}
