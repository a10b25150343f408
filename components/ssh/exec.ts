// Running a command on a host over the pooled SSH connection.
import type { ClientChannel } from "ssh2";
import type { SshTarget } from "./target";
import { SshError } from "./errors";
import { openChannel, sshAddress } from "./pool";

export interface ExecResult {
    /** Exit status; null when the command was ended by a signal. */
    code: number | null;
    signal?: string;
    stdout: string;
    stderr: string;
}

export interface ExecOptions {
    /** Text fed to the command's standard input (then end of file); without it stdin is empty. */
    stdin?: string;
}

/**
 * Runs `command` through the login shell of `target.user`. A non-zero exit is a result, not an
 * error: callers decide what it means. Errors (connection, refused channel, connection lost
 * mid-command) name user@host:port and the program, never the private key or the arguments
 * (which may hold secrets).
 */
export async function exec(target: SshTarget, privateKey: string, command: string, options: ExecOptions = {}): Promise<ExecResult> {
    const { channel, done } = await openChannel<ClientChannel>(target, privateKey, "session", (client, callback) =>
        client.exec(command, callback),
    );
    return new Promise<ExecResult>((resolve, reject) => {
        const stdout: Buffer[] = [];
        const stderr: Buffer[] = [];
        let code: number | null | undefined;
        let signal: string | undefined;
        channel.on("data", (chunk: Buffer) => stdout.push(chunk));
        channel.stderr.on("data", (chunk: Buffer) => stderr.push(chunk));
        channel.on("exit", (exitCode: number | null, signalName?: string) => {
            code = exitCode;
            if (signalName) signal = signalName;
        });
        channel.on("error", () => undefined); // always followed by "close", which reports it
        channel.on("close", () => {
            done();
            if (code === undefined) {
                const program = command.trim().split(/\s+/)[0] ?? "";
                reject(new SshError(`SSH ${sshAddress(target)}: connection lost while running ${program}`));
                return;
            }
            const result: ExecResult = {
                code,
                stdout: Buffer.concat(stdout).toString("utf8"),
                stderr: Buffer.concat(stderr).toString("utf8"),
            };
            if (signal !== undefined) result.signal = signal;
            resolve(result);
        });
        channel.end(options.stdin);
    });
}
