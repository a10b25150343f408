// Container logs where and how the kubelet keeps them: /var/log/pods/<ns>_<pod>_<uid>/<container>/
// <restartCount>.log in the CRI format (`<RFC3339Nano time> <stream> <F|P> <text>`), which
// `kubectl logs` and log collectors read. Pure apart from the writer's file descriptor.
import * as fs from "node:fs";
import * as path from "node:path";

export const DEFAULT_POD_LOGS_DIR = "/var/log/pods";

export function podLogDir(logsDir: string, namespace: string, pod: string, uid: string): string {
    return path.posix.join(logsDir, `${namespace}_${pod}_${uid}`);
}

export function containerLogPath(logsDir: string, namespace: string, pod: string, uid: string, container: string, restartCount: number): string {
    return path.posix.join(podLogDir(logsDir, namespace, pod, uid), container, `${restartCount}.log`);
}

/** RFC 3339 with the fraction's trailing zeros removed, as Go's time.RFC3339Nano prints. */
export function criTime(d: Date): string {
    return d.toISOString().replace(/\.?0+Z$/, "Z");
}

export type LogStream = "stdout" | "stderr";

/** One complete (F) or partial (P) line. */
export function criLine(time: Date, stream: LogStream, text: string, partial = false): string {
    return `${criTime(time)} ${stream} ${partial ? "P" : "F"} ${text}\n`;
}

export interface CriEntry {
    time: string;
    stream: LogStream;
    partial: boolean;
    text: string;
}

export function parseCriLog(content: string): CriEntry[] {
    const out: CriEntry[] = [];
    for (const line of content.split("\n")) {
        const m = /^(\S+) (stdout|stderr) ([FP]) (.*)$/.exec(line);
        if (m) out.push({ time: m[1], stream: m[2] as LogStream, partial: m[3] === "P", text: m[4] });
    }
    return out;
}

/** The text a container wrote, partial lines joined, as `kubectl logs` shows it. */
export function logText(content: string, stream?: LogStream): string {
    let text = "";
    for (const e of parseCriLog(content)) {
        if (stream && e.stream !== stream) continue;
        text += e.partial ? e.text : `${e.text}\n`;
    }
    return text;
}

/** The kubelet's FallbackToLogsOnError message: the log's last 80 lines, at most 2048 bytes. */
export function terminationMessageFromLog(content: string): string {
    const lines = logText(content).split("\n");
    if (lines[lines.length - 1] === "") lines.pop();
    let msg = lines.slice(-80).join("\n");
    while (Buffer.byteLength(msg) > 2048) msg = msg.slice(1);
    return msg;
}

/** Turns a container's output chunks into CRI lines on a file descriptor. */
export class CriLogWriter {
    private carry: Record<LogStream, string> = { stdout: "", stderr: "" };

    constructor(private readonly fd: number) {}

    write(stream: LogStream, chunk: Buffer | string): void {
        const text = this.carry[stream] + chunk.toString();
        const lines = text.split("\n");
        this.carry[stream] = lines.pop()!;
        const now = new Date();
        if (lines.length > 0) fs.writeSync(this.fd, lines.map((l) => criLine(now, stream, l)).join(""));
    }

    /** Writes what is left of unfinished lines and closes the file. */
    close(): void {
        const now = new Date();
        for (const stream of ["stdout", "stderr"] as const) {
            if (this.carry[stream] !== "") fs.writeSync(this.fd, criLine(now, stream, this.carry[stream]));
            this.carry[stream] = "";
        }
        fs.closeSync(this.fd);
    }
}
