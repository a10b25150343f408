// Runs the project's program (index.ts) through the SDK's own program runner, `cmd/run`, the
// entry the Pulumi language host starts for `pulumi preview` and `pulumi up`: same TypeScript
// compilation (ts-node), same config and secret handling, same serialization of resources.
import { spawn } from "child_process";
import * as path from "path";
import { MonitorServer, RegisterHandler, startMonitor } from "./monitor";
import { SDK_DIR } from "./sdk";

export interface RunOptions {
    projectDir: string;
    project: string;
    stack: string;
    /** `ovn-kubernetes:key` → value (strings; structured values as JSON text), as PULUMI_CONFIG carries them. */
    config: Record<string, string>;
    secretKeys: string[];
    dryRun: boolean;
    register: RegisterHandler;
}

export interface RunResult {
    code: number;
    monitor: MonitorServer;
    stdout: string;
    stderr: string;
}

export async function runProgram(o: RunOptions): Promise<RunResult> {
    const monitor = await startMonitor({ stack: o.stack, project: o.project, register: o.register });
    const args = [
        path.join(SDK_DIR, "cmd", "run"),
        "--monitor",
        monitor.address,
        "--engine",
        monitor.address,
        "--organization",
        "organization",
        "--project",
        o.project,
        "--root-directory",
        o.projectDir,
        "--stack",
        o.stack,
        "--pwd",
        o.projectDir,
        ...(o.dryRun ? ["--dry-run"] : []),
        "--parallel",
        "16",
        ".",
    ];
    const child = spawn(process.execPath, args, {
        cwd: o.projectDir,
        env: {
            ...process.env,
            PULUMI_NODEJS_TYPESCRIPT: "true",
            PULUMI_CONFIG: JSON.stringify(o.config),
            PULUMI_CONFIG_SECRET_KEYS: JSON.stringify(o.secretKeys),
            PULUMI_NODEJS_PROJECT: o.project,
            PULUMI_NODEJS_STACK: o.stack,
            // The runner must not inherit a test runner's loader hooks.
            NODE_OPTIONS: "",
        },
        stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    const code = await new Promise<number>((resolve) => child.on("close", (c) => resolve(c ?? 1)));
    await monitor.close();
    return { code, monitor, stdout, stderr };
}
