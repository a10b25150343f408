// The text of host scripts: the constant bash bodies of ./bash and the quoted variable
// assignments in front of them (the rule is in ./shell.ts). Imports nothing of the bundle, so the
// bundle and the commands can both build on it.

import { readFileSync } from "node:fs";
import { join } from "node:path";
import { shellQuote } from "../../ssh/shellQuote";

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

// Strict mode and a fixed locale (`ip`/`ovs-vsctl` output is parsed, and `read -N` must count bytes).
export const STRICT = ["set -euo pipefail", "export LC_ALL=C"];

export function assignments(vars: ScriptVars): string[] {
    return Object.entries(vars).map(([name, value]) => {
        if (!VAR_NAME.test(name)) throw new Error(`hosts: bad script variable name ${JSON.stringify(name)}`);
        return `${name}=${shellQuote(value)}`;
    });
}

/**
 * A standalone program: the same assignments, then the bodies' text itself. For what must outlive
 * any bundle (the boot program, the bundle's own installer).
 */
export function bashProgram(purpose: string, vars: ScriptVars, bodyNames: string[]): string {
    if (/[\x00-\x1f\x7f]/.test(purpose)) throw new Error(`hosts: a program's purpose must be one line: ${JSON.stringify(purpose)}`);
    return [
        "#!/usr/bin/env bash",
        `# ${purpose}`,
        ...STRICT,
        ...assignments(vars),
        ...bodyNames.map((name) => bashBody(name).trim()),
        "",
    ].join("\n");
}
