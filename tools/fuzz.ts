// npm run fuzz -- [--runs N] [--seed S]
// Property-based checks of validation (test/support/fuzz.ts): random configs of the schema's shape
// and mutations of the example stacks through validate, render and the cluster component under
// Pulumi mocks. Prints how many cases ran, how many validate accepted and what they registered;
// exit 1 with the smallest failing case when a property fails.
import { parseArgs } from "node:util";
import { runFuzz, withMocks } from "../test/support/fuzz";

async function main(): Promise<number> {
    const { values } = parseArgs({ options: { runs: { type: "string", default: "1000" }, seed: { type: "string" } } });
    const runs = Number(values.runs);
    if (!Number.isInteger(runs) || runs < 1) {
        console.error("usage: npm run fuzz -- [--runs N] [--seed S]");
        return 2;
    }
    const started = Date.now();
    const result = await runFuzz(runs, await withMocks(), values.seed === undefined ? undefined : Number(values.seed));
    console.log(
        `fuzz: ${result.runs} cases ran, ${result.accepted} accepted by validate (each rendered and run under mocks: ${result.registered} resources registered), ` +
            `${result.runs - result.accepted} refused with config paths; no property failed (${((Date.now() - started) / 1000).toFixed(1)} s)`,
    );
    return 0;
}

main().then(
    (code) => process.exit(code),
    (e) => {
        console.error((e as Error).message);
        process.exit(1);
    },
);
