// npm run fuzz -- [--runs N] [--seed S] [--program-every K]
// Property-based checks of validation (test/support/fuzz.ts): random configs of the schema's shape
// and mutations of the example stacks through validate and render, scalars of stack files spelled the ways YAML allows
// through the stack file reader (test/support/fuzzYaml.ts), and every K-th accepted config
// (default every one) through the cluster component under Pulumi mocks, which costs most. Prints how many cases ran, how many validate accepted and what they registered;
// exit 1 with the smallest failing case when a property fails.
import { parseArgs } from "node:util";
import { runFuzz, withMocks } from "../test/support/fuzz";
import { runYamlFuzz } from "../test/support/fuzzYaml";

async function main(): Promise<number> {
    const { values } = parseArgs({
        options: { runs: { type: "string", default: "1000" }, seed: { type: "string" }, "program-every": { type: "string", default: "1" } },
    });
    const runs = Number(values.runs);
    const every = Number(values["program-every"]);
    if (!Number.isInteger(runs) || runs < 1 || !Number.isInteger(every) || every < 1) {
        console.error("usage: npm run fuzz -- [--runs N] [--seed S] [--program-every K]");
        return 2;
    }
    const started = Date.now();
    const result = await runFuzz(runs, await withMocks(), values.seed === undefined ? undefined : Number(values.seed), every);
    console.log(
        `fuzz: ${result.runs} cases ran, ${result.accepted} accepted by validate and rendered, ${result.programs} of them run under mocks (${result.registered} resources registered), ` +
            `${result.runs - result.accepted} refused with config paths; no property failed (${((Date.now() - started) / 1000).toFixed(1)} s)`,
    );
    const yaml = await runYamlFuzz(runs, values.seed === undefined ? undefined : Number(values.seed));
    console.log(
        `fuzz: ${yaml.runs} stack file spellings read, ${yaml.refused} refused where the Pulumi CLI reads them otherwise; the rest read alike`,
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
