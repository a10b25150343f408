// Argument parsing shared by the CLIs: one stack file as the only positional argument, options
// as declared; wrong arguments print the usage line and exit 2 (docs/cli.md).
import * as path from "node:path";
import { parseArgs, type ParseArgsConfig } from "node:util";

/** Exit codes of every CLI here (docs/cli.md). */
export const EXIT = { ok: 0, failed: 1, usage: 2 } as const;

export function stackArgs<O extends NonNullable<ParseArgsConfig["options"]>>(argv: string[], options: O, usage: string) {
    try {
        const { values, positionals } = parseArgs({ args: argv, allowPositionals: true, strict: true, options });
        if (positionals.length === 1) return { file: positionals[0], values };
    } catch {
        // An unknown option or a missing value: the usage says what is expected.
    }
    console.error(usage);
    return undefined;
}

/** `stacks/Pulumi.prod.yaml` → `prod`. */
export const stackNameOf = (file: string) =>
    path
        .basename(file)
        .replace(/^Pulumi\./, "")
        .replace(/\.ya?ml$/, "");
