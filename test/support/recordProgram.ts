// Runs the program for a stack under the SDK's mocks in this process and writes every registered
// resource as JSON: `node --import tsx test/support/recordProgram.ts <stack> <out.json> [overrides JSON]`.
// Tests that need the resources of several stacks (or variants of one) run it once per stack,
// since a process holds one program.
import { writeFileSync } from "node:fs";
import { runProgramUnderMocks } from "../../lab/harness/pulumiMocks";

const [stack, out, overrides] = process.argv.slice(2);
runProgramUnderMocks(stack, overrides ? JSON.parse(overrides) : {}).then(({ resources }) => writeFileSync(out, JSON.stringify(resources)));
