// Building bash scripts that run on hosts through @pulumi/command (the script text is the SSH exec
// command, so the SSH user's login shell must be bash, as root's is on Debian and RHEL).
//
// Rule: model values enter a script ONLY as the right-hand side of `name='value'` assignments at
// its top, each checked against a strict pattern (./patterns.ts) and quoted here. Script bodies are
// constant text that refers to those variables, so no value is ever parsed as shell syntax.

import { readFileSync } from "node:fs";
import { join } from "node:path";
import { shellQuote } from "../../ssh/shellQuote";
import { scriptBundle } from "./bundle";

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
const BODY_NAME = /^[a-z][a-z0-9-]*$/;
const RUN_CALL = '. "$script_bundle/run.sh" ';

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

function header(purpose: string, vars: ScriptVars): string[] {
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
    ];
}

/**
 * A host command: strict mode, quoted variable assignments, then a call of the host's script
 * bundle (./bundle) that runs the named bodies in order from the bundle's directory, its stderr
 * into a log file on the host (./bash/run.sh). The bodies are not in the text: a command holds
 * only its arguments, and the delete recorded in state names the bundle that did the create.
 * `set -x` is never used: it would print secrets read from stdin.
 */
export function bashScript(purpose: string, vars: ScriptVars, bodyNames: string[]): string {
    const dir = scriptBundle().dir;
    const bodies = bodyNames.map((name) => {
        if (!BODY_NAME.test(name)) throw new Error(`hosts: bad script body name ${JSON.stringify(name)}`);
        return name;
    });
    return [
        ...header(purpose, vars),
        `script_bundle=${dir}`,
        `script_purpose=${shellQuote(purpose)}`,
        `[[ -r $script_bundle/run.sh ]] || { echo "error: the script bundle $script_bundle is not on this host (the host's ScriptBundle resource installs it)" >&2; exit 1; }`,
        "# shellcheck source=/dev/null",
        `${RUN_CALL}${bodies.join(" ")}`,
        "",
    ].join("\n");
}

/**
 * A standalone program: the same header, then the bodies' text itself. For what must outlive any
 * bundle (the boot program) and for reading or linting a command as one file.
 */
export function bashProgram(purpose: string, vars: ScriptVars, bodyNames: string[]): string {
    return [...header(purpose, vars), ...bodyNames.map((name) => bashBody(name).trim()), ""].join("\n");
}

/** A command of bashScript as the one program it runs (its bodies inline, without the log wrapper). */
export function inlineCommand(command: string): string {
    const lines = command.split("\n");
    const call = lines.find((l) => l.startsWith(RUN_CALL));
    if (call === undefined) throw new Error("hosts: not a bundle command");
    const bodies = call.slice(RUN_CALL.length).split(" ").filter((b) => b !== "");
    const text = bodies.map((name) => bashBody(name).trim());
    // The bundle's directory stays assigned where a body reads files of it (the boot program).
    const usesBundle = text.some((t) => t.includes("$script_bundle"));
    const own = (l: string) => l === call || l === "# shellcheck source=/dev/null" || /^(script_purpose=|\[\[ -r \$script_bundle)/.test(l) || (!usesBundle && l.startsWith("script_bundle="));
    return [...lines.filter((l) => l !== "" && !own(l)), ...text, ""].join("\n");
}

/** The last non-empty line of a script's stdout: where scripts put their one result. */
export function lastStdoutLine(stdout: string): string {
    const lines = stdout.split("\n").map((l) => l.trim()).filter((l) => l !== "");
    return lines.length ? lines[lines.length - 1] : "";
}
