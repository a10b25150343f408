// The seeds' way: one `ssh … ovn-nbctl …` process per command, each a new SSH login and a new
// ovn-nbctl that downloads the whole database. Run in full, or sampled: the mean time of a few
// commands at several database sizes, multiplied by the number of commands (labelled as such).
import { execFile } from "child_process";
import { promisify } from "util";
import { shellCommand } from "@ovn-kubernetes-as-code/cluster/ssh";
import type { TestSshd } from "@ovn-kubernetes-as-code/lab/harness";
import type { NbctlCommand } from "./seedCommands";

const run = promisify(execFile);

export interface SshNbctl {
    /** Runs the commands in order, one process each; returns seconds per command. */
    runAll(commands: NbctlCommand[], captured: Record<string, string>): Promise<number[]>;
}

export function sshNbctl(sshd: TestSshd, knownHosts: string, socket: string): SshNbctl {
    const ssh = [
        "-i",
        `${sshd.dir}/id_ed25519`,
        "-o",
        `UserKnownHostsFile=${knownHosts}`,
        "-o",
        "StrictHostKeyChecking=yes",
        "-o",
        "BatchMode=yes",
        "-p",
        String(sshd.port),
        `${sshd.user}@${sshd.host}`,
    ];
    return {
        async runAll(commands, captured) {
            const times: number[] = [];
            for (const c of commands) {
                const args = c.args.map((a) => a.replace(/\{([^}]+)\}/g, (_, name: string) => captured[name]));
                const start = process.hrtime.bigint();
                const { stdout } = await run("ssh", [...ssh, shellCommand(["ovn-nbctl", `--db=unix:${socket}`, ...args])]);
                times.push(Number(process.hrtime.bigint() - start) / 1e9);
                if (c.capture) captured[c.capture] = stdout.trim();
            }
            return times;
        },
    };
}

export const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
export const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
