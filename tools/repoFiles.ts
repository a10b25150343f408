// The repository's own files of one kind, for the tools and checks that read them all: every file
// under a folder whose name ends with `suffix`, skipping dependencies, builds, git and lab state.
import * as fs from "node:fs";
import * as path from "node:path";

const SKIP = new Set(["node_modules", "dist", ".git", ".local", ".node", "scratch"]);

export function repoFiles(dir: string, suffix: string, out: string[] = []): string[] {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
        if (SKIP.has(e.name)) continue;
        const f = path.join(dir, e.name);
        if (e.isDirectory()) repoFiles(f, suffix, out);
        else if (e.name.endsWith(suffix)) out.push(f);
    }
    return out;
}
