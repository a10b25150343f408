import * as path from "node:path";

/** The repository that holds the Pulumi project (index.ts, stacks/) this lab serves. */
export const PROJECT_ROOT = path.resolve(__dirname, "..");
