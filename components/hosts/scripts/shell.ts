// Building bash scripts that run on hosts through @pulumi/command (the script text is the SSH exec
// command, so the SSH user's login shell must be bash, as root's is on Debian and RHEL).
//
// Rule: model values enter a script ONLY as the right-hand side of `name='value'` assignments at
// its top, each checked against a strict pattern (./patterns.ts) and quoted here. Script bodies are
// constant text that refers to those variables, so no value is ever parsed as shell syntax.

import { shellQuote } from "../../ssh/shellQuote";
import { BUNDLE_CONSTANTS, COMMON_BODY, scriptBundle } from "./bundle";
import { STRICT, assignments, bashBody, type ScriptVars } from "./bashText";

export { bashBody, bashProgram, type ScriptVars } from "./bashText";

/** A generated host script: `create` also serves as `update` unless a distinct one is given. */
export interface HostScript {
    create: string;
    update?: string;
    delete?: string;
}

export { shellQuote };

const BODY_NAME = /^[a-z][a-z0-9-]*$/;

/**
 * A host command: the quoted variable assignments, then one line that sources the run.sh of the
 * host's script bundle (./bundle) with the bodies to run, in order, from the bundle's directory.
 * run.sh sets strict mode, reads the bundle's constants and common functions first, and keeps the
 * bodies' stderr in a log file on the host. The bodies are not in the text: a command holds only
 * its arguments, and the delete recorded in state names the bundle that did the create. `set -x`
 * is never used: it would print secrets read from stdin.
 */
export function bashScript(vars: ScriptVars, bodyNames: string[]): string {
    if (bodyNames.length === 0) throw new Error("hosts: a host command runs at least one body");
    for (const name of bodyNames) {
        if (!BODY_NAME.test(name)) throw new Error(`hosts: bad script body name ${JSON.stringify(name)}`);
        if (name === COMMON_BODY) throw new Error(`hosts: run.sh reads ${name} before every command's bodies: leave it out`);
    }
    for (const name of Object.keys(vars)) {
        if (name in BUNDLE_CONSTANTS) throw new Error(`hosts: ${name} is a constant of the bundle: leave it out of the command`);
    }
    return [...assignments(vars), `. ${scriptBundle().dir}/run.sh ${bodyNames.join(" ")}`, ""].join("\n");
}

const RUN_CALL = /^\. (\/\S+)\/run\.sh ([a-z0-9 -]+)$/;

/** A command of bashScript as the one program it runs, its bodies inline (to read or lint it as one file). */
export function inlineCommand(command: string): string {
    const lines = command.trimEnd().split("\n");
    const call = RUN_CALL.exec(lines[lines.length - 1]);
    if (call === null) throw new Error("hosts: not a bundle command");
    const text = call[2].split(" ").map((name) => bashBody(name).trim());
    // The bundle's directory stays assigned where a body reads files of it (the boot program).
    const bundle = text.some((t) => t.includes("$script_bundle")) ? [`script_bundle=${call[1]}`] : [];
    // The bundle's constants that these bodies read (shellcheck would call the others unused).
    const constants = Object.fromEntries(
        Object.entries(BUNDLE_CONSTANTS).filter(([name]) => text.some((t) => new RegExp(`\\$\\{?${name}\\b`).test(t))),
    );
    return [
        "#!/usr/bin/env bash",
        ...STRICT,
        ...lines.slice(0, -1),
        ...assignments(constants),
        ...bundle,
        bashBody(COMMON_BODY).trim(),
        ...text,
        "",
    ].join("\n");
}

/** The last non-empty line of a script's stdout: where scripts put their one result. */
export function lastStdoutLine(stdout: string): string {
    const lines = stdout
        .split("\n")
        .map((l) => l.trim())
        .filter((l) => l !== "");
    return lines.length ? lines[lines.length - 1] : "";
}
