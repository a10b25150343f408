// Secrets must reach the program as Pulumi secrets: a value written in plain text into a stack
// file is in every clone of the repository and in the state unencrypted, however carefully the
// program handles it afterwards.
import { PROJECT } from "./stackFile";
import { SECRET_KEYS, type SecretKey, type StackConfigInput } from "./types";
import type { Problem } from "./problem";

/** What stands for a secret key's value given in plain text; never the value itself. */
export const PLAIN_TEXT_SECRET = "(plain text)";

/** The command that stores a secret encrypted, as every refusal shows it. */
export const setSecretCommand = (key: SecretKey) => `pulumi config set --secret ${PROJECT}:${key} < <file>`;

/**
 * Secret keys whose value is plain text (a string; ciphertext arrives as `{secure: …}`, the
 * program's secrets as a marker object). An empty string is the schema's to report.
 */
export function plainSecretProblems(input: Pick<StackConfigInput, SecretKey>): Problem[] {
    return SECRET_KEYS.filter((k) => typeof input[k] === "string" && input[k] !== "").map((k) => ({
        path: k,
        message: `is in plain text, which puts it unencrypted in the stack file and its history; store it encrypted with \`${setSecretCommand(k)}\` and remove the plain value`,
    }));
}
