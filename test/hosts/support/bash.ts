// Running bash and shellcheck on this machine for the static script tests.
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export interface LocalRun {
    code: number;
    stdout: string;
    stderr: string;
}

export function runLocal(argv: string[], input = ""): LocalRun {
    const r = spawnSync(argv[0], argv.slice(1), { input, encoding: "utf8", timeout: 60_000 });
    if (r.error) throw r.error;
    return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}

/** `bash -n` (syntax) and `shellcheck -s bash` on a script; returns the problems, empty when clean. */
export function lintScript(script: string): string[] {
    const dir = mkdtempSync(join(tmpdir(), "hosts-lint-"));
    try {
        const file = join(dir, "script.sh");
        writeFileSync(file, script);
        const problems: string[] = [];
        const syntax = runLocal(["bash", "-n", file]);
        if (syntax.code !== 0) problems.push(`bash -n: ${syntax.stderr}`);
        const check = runLocal(["shellcheck", "-s", "bash", "-f", "gcc", file]);
        if (check.code !== 0) problems.push(`shellcheck: ${check.stdout}${check.stderr}`);
        return problems;
    } finally {
        rmSync(dir, { recursive: true, force: true });
    }
}
