// The offline apply's command line, a stand-in for the Pulumi CLI on a machine without it (local
// trials and tests; real clusters use `pulumi up`):
//   node --import tsx offline/cli.ts <up|preview|refresh|destroy> --stack <name> [--yes] [--refresh]
//        [--continue-on-error] [--stack-file PATH] [--local-dir DIR] [--project-dir DIR]
// Without --yes, up, refresh and destroy only show what they would do, as `pulumi` does when it
// cannot ask. Exit status: 0 done, 1 failed, 2 bad usage.
import { parseArgs } from "node:util";
import { apply, destroy, refresh, type OfflineOptions, type OperationResult } from "./api";
import { footer, heading, opLine } from "./summary";

export { apply, destroy, preview, refresh } from "./api";
export type { OfflineOptions, OperationResult } from "./api";

const USAGE = `usage: offline/cli.ts <up|preview|refresh|destroy> --stack NAME [--yes] [--refresh]
  up        run the program and carry out its changes (without --yes: preview only)
  preview   show what up would do
  refresh   read live state and report drift (without --yes: the state is not changed)
  destroy   delete everything in the stack (without --yes: preview only)
options:    --refresh           up/preview: refresh first (drift is shown, then repaired by up)
            --continue-on-error up: a failed step stops only what depends on it (the up still fails)
            --stack-file PATH   default <project>/stacks/Pulumi.<stack>.yaml (Pulumi.yaml stackConfigDir)
            --local-dir DIR     state and manifests (default <project>/.local)
            --project-dir DIR   the Pulumi project (default this repository)
This is the offline stand-in for the Pulumi engine; real clusters use \`pulumi up\`.`;

const OPERATIONS: Record<string, (o: OfflineOptions) => Promise<OperationResult>> = {
    up: apply,
    preview: (o) => apply({ ...o, dryRun: true }),
    refresh,
    destroy,
};

export async function main(argv: string[]): Promise<number> {
    let parsed;
    try {
        parsed = parseArgs({
            args: argv,
            allowPositionals: true,
            options: {
                stack: { type: "string", short: "s" },
                yes: { type: "boolean", short: "y", default: false },
                refresh: { type: "boolean", short: "r", default: false },
                "continue-on-error": { type: "boolean", default: false },
                "stack-file": { type: "string" },
                "local-dir": { type: "string" },
                "project-dir": { type: "string" },
                help: { type: "boolean", short: "h", default: false },
            },
        });
    } catch (e) {
        console.error(`${(e as Error).message}\n${USAGE}`);
        return 2;
    }
    const { values, positionals } = parsed;
    if (values.help) {
        console.log(USAGE);
        return 0;
    }
    const [command] = positionals;
    const run = command === undefined ? undefined : OPERATIONS[command];
    if (!run || positionals.length !== 1 || !values.stack) {
        console.error(USAGE);
        return 2;
    }
    const dryRun = command === "preview" || !values.yes;
    console.log(heading(command as OperationResult["operation"], values.stack, dryRun));
    const result = await run({
        stack: values.stack,
        stackFile: values["stack-file"],
        localDir: values["local-dir"],
        projectDir: values["project-dir"],
        dryRun,
        refresh: values.refresh,
        continueOnError: values["continue-on-error"],
        onOp: (o) => {
            if (o.op !== "same" || o.error) console.log(opLine(o, dryRun));
        },
    });
    console.log(footer(result));
    if (result.ok && dryRun && command !== "preview") console.log(`\n(nothing was changed: run again with --yes to ${command})`);
    return result.ok ? 0 : 1;
}

if (require.main === module) {
    main(process.argv.slice(2)).then(
        (code) => process.exit(code),
        (e: Error) => {
            console.error(`error: ${e.message}`);
            process.exit(1);
        },
    );
}
