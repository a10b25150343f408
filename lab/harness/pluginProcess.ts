// A plugin process as the engine starts one: node with the SDK entry's arguments, its gRPC port
// on the first stdout line, its stderr kept for failure messages.
import { spawn, type ChildProcess } from "node:child_process";

export interface PluginProcess {
    child: ChildProcess;
    port: number;
    /** What the process wrote to stderr so far (plugins log failures there). */
    stderr(): string;
}

export async function startPluginProcess(args: string[], cwd: string, env: NodeJS.ProcessEnv = process.env): Promise<PluginProcess> {
    const child = spawn(process.execPath, args, { cwd, env, stdio: ["ignore", "pipe", "pipe"] });
    let stderr = "";
    child.stderr!.on("data", (d) => (stderr += d));
    const port = await new Promise<number>((resolve, reject) => {
        let out = "";
        child.stdout!.on("data", (d) => {
            out += d;
            if (out.includes("\n")) resolve(Number(out.split("\n")[0].trim()));
        });
        child.once("exit", (code) => reject(new Error(`${args[0]} exited with ${code}: ${stderr}`)));
    });
    return { child, port, stderr: () => stderr };
}
