// Running a command on a host over the pooled SSH connection.
import type { ClientChannel } from "ssh2";
import type { SshTarget } from "../model/sshTarget";
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
    // Listeners go on the channel in ssh2's own callback, before any await, and the status is
    // also taken from "close" (ssh2 passes it there too): ssh2 emits "exit" once, when the status
    // arrives, so a listener attached a microtask later can miss it, and a quick command's
    // ordinary end then reads as a lost connection (seen on busy lab hosts).
    const ends = new Map<ClientChannel, Promise<ExecResult | undefined>>();
    const { channel, done } = await openChannel<ClientChannel>(target, privateKey, "session", (client, callback) =>
        client.exec(command, (err, channel) => {
            if (!err) ends.set(channel, collect(channel));
            callback(err, channel);
        }),
    );
    channel.end(options.stdin);
    const result = await ends.get(channel)!.finally(done);
    if (result === undefined) {
        const program = command.trim().split(/\s+/)[0] ?? "";
        throw new SshError(`SSH ${sshAddress(target)}: connection lost while running ${program}`);
    }
    return result;
}

/** The channel's output and exit status once it closes; undefined when it closed without a status. */
export function collect(channel: ClientChannel): Promise<ExecResult | undefined> {
    return new Promise((resolve) => {
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
        // ssh2 also passes the status to "close" (as node's child processes do).
        channel.on("close", (closeCode?: number | null, closeSignal?: string) => {
            if (code === undefined && closeCode !== undefined) {
                code = closeCode;
                if (closeSignal) signal = closeSignal;
            }
            if (code === undefined) return resolve(undefined);
            const result: ExecResult = {
                code,
                stdout: Buffer.concat(stdout).toString("utf8"),
                stderr: Buffer.concat(stderr).toString("utf8"),
            };
            if (signal !== undefined) result.signal = signal;
            resolve(result);
        });
    });
}
