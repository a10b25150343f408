// Building bash scripts that run on hosts through @pulumi/command (the script text is the SSH exec
// command, so the SSH user's login shell must be bash, as root's is on Debian and RHEL).
//
// Rule: model values enter a script ONLY as the right-hand side of `name='value'` assignments at
// its top, each checked against a strict pattern (./patterns.ts) and quoted here. Script bodies are
// constant text that refers to those variables, so no value is ever parsed as shell syntax.

import { readFileSync } from "node:fs";
import { join } from "node:path";
import { shellQuote } from "../../ssh/shellQuote";

/** A generated host script: `create` also serves as `update` unless a distinct one is given. */
export interface HostScript {
    create: string;
    update?: string;
    delete?: string;
}

export { shellQuote };

/** A script variable: shell name and the (already pattern-checked) value it holds. */
export type ScriptVars = Record<string, string>;

const VAR_NAME = /^[a-z][a-z0-9_]*$/;

/**
 * Constant bash text kept as real .sh files in ./bash (read once): they hold no model value, and
 * as files they are readable bash rather than bash escaped inside TypeScript template strings.
 */
const bodies = new Map<string, string>();
export function bashBody(name: string): string {
    let text = bodies.get(name);
    if (text === undefined) {
        text = readFileSync(join(__dirname, "bash", `${name}.sh`), "utf8");
        bodies.set(name, text);
    }
    return text;
}

/**
 * One bash script: strict mode, quoted variable assignments, then the constant bodies in order.
 * `set -x` is never used: it would print secrets read from stdin.
 */
export function bashScript(purpose: string, vars: ScriptVars, bodyNames: string[]): string {
    if (/[\x00-\x1f\x7f]/.test(purpose)) throw new Error(`hosts: script purpose must be one line: ${JSON.stringify(purpose)}`);
    const assignments = Object.entries(vars).map(([name, value]) => {
        if (!VAR_NAME.test(name)) throw new Error(`hosts: bad script variable name ${JSON.stringify(name)}`);
        return `${name}=${shellQuote(value)}`;
    });
    return [
        "#!/usr/bin/env bash",
        `# ${purpose}`,
        "set -euo pipefail",
        // A fixed locale: `ip`/`ovs-vsctl` output is parsed, and `read -N` must count bytes.
        "export LC_ALL=C",
        ...assignments,
        ...bodyNames.map((name) => bashBody(name).trim()),
        "",
    ].join("\n");
}


/** The last non-empty line of a script's stdout: where scripts put their one result. */
export function lastStdoutLine(stdout: string): string {
    const lines = stdout.split("\n").map((l) => l.trim()).filter((l) => l !== "");
    return lines.length ? lines[lines.length - 1] : "";
}
