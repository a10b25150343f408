// Programs the local cluster runs from this machine, checked up front so that a missing one is
// reported with the package that provides it, not as a failure halfway through.
import { run } from "./run";

/** Throws naming every missing program and the fix, e.g. "apt-get install -y iproute2". */
export async function requireTools(tools: readonly string[], fix: string): Promise<void> {
    const missing: string[] = [];
    for (const tool of tools) {
        if ((await run(["sh", "-c", 'command -v "$1"', "sh", tool])).code !== 0) missing.push(tool);
    }
    if (missing.length > 0) throw new Error(`${missing.join(", ")} not found: ${fix}`);
}
