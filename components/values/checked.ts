// Every model value that reaches a host script is checked against a pattern of the shared table
// (./patterns.ts). The model is validated already; these checks are the last line of
// defence at the shell boundary, so a value that slipped past (or a model built by hand) fails
// here, naming the field, before anything runs.
import { PATTERNS, type PatternName } from "./patterns";

/** Return `value` if it matches the pattern, else throw an error naming the model field. */
export function checked(field: string, value: unknown, pattern: PatternName): string {
    const { what, re } = PATTERNS[pattern];
    if (typeof value !== "string" || !re.test(value)) {
        throw new Error(`hosts: ${field} must be ${what}, got ${JSON.stringify(value)}`);
    }
    return value;
}

/** Integers (MTU, timeouts) are checked as numbers and then rendered in decimal. */
export function checkedInt(field: string, value: unknown, min: number, max: number): string {
    if (typeof value !== "number" || !Number.isInteger(value) || value < min || value > max) {
        throw new Error(`hosts: ${field} must be an integer from ${min} to ${max}, got ${JSON.stringify(value)}`);
    }
    return String(value);
}
