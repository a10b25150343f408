// The host script bundle: the project's bash library (./bash) and the boot program, shipped to each
// host once, into a content-addressed directory, instead of inside every command's text (which the
// state stores twice per command). Two versions coexist: a command's delete recorded in state names
// the directory of the version that created it, which stays until the host's ScriptBundle resource
// of that version is deleted (after every command that refers to it was updated or deleted).
import { createHash } from "node:crypto";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { BOOT_PROGRAM_FILE, bootProgram, bootVars } from "./boot";
import { assignments, bashBody, bashProgram, type ScriptVars } from "./bashText";

/** Where bundles live on a host: one directory per bundle, named by its id. */
export const BUNDLE_ROOT = "/usr/local/lib/ovn-kubernetes-as-code";

/** Where host commands keep what they print besides their result (./bash/run.sh writes there). */
export const COMMAND_LOG_DIR = "/var/log/ovn-kubernetes-as-code";

/**
 * Values the bodies read that are the same on every host and in every stack: assigned once, in the
 * bundle's CONSTANTS_FILE, which run.sh reads before a command's bodies, instead of in every
 * command's text.
 */
export const BUNDLE_CONSTANTS: ScriptVars = bootVars();
const CONSTANTS_FILE = "constants.sh";

/** The functions every body may use (bash/common.sh): run.sh reads them after the constants. */
export const COMMON_BODY = "common";

/** The manifest: `sha256sum` lines of every other file; its own digest is the bundle's. */
const MANIFEST = "SHA256SUMS";

export interface ScriptBundle {
    /** sha256 of the manifest. */
    digest: string;
    /** The directory name: the digest's first 16 hex digits (64 bits tell our own versions apart). */
    id: string;
    dir: string;
    /** File name → content, the manifest included. */
    files: Record<string, string>;
}

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");

let built: ScriptBundle | undefined;

/** This package's bundle (built once). */
export function scriptBundle(): ScriptBundle {
    if (built) return built;
    const files: Record<string, string> = {};
    for (const file of readdirSync(join(__dirname, "bash"))
        .filter((f) => f.endsWith(".sh"))
        .sort())
        files[file] = bashBody(file.slice(0, -3));
    files[BOOT_PROGRAM_FILE] = bootProgram();
    files[CONSTANTS_FILE] = [
        "# The bundle's constants (BUNDLE_CONSTANTS), read by run.sh before a command's bodies.",
        ...assignments(BUNDLE_CONSTANTS),
        "",
    ].join("\n");
    const manifest = Object.keys(files)
        .sort()
        .map((f) => `${sha256(files[f])}  ${f}\n`)
        .join("");
    files[MANIFEST] = manifest;
    const digest = sha256(manifest);
    const id = digest.slice(0, 16);
    built = { digest, id, dir: `${BUNDLE_ROOT}/${id}`, files };
    return built;
}

const HEX = /^[0-9a-f]{64}$/;

/** The command that installs a bundle of `digest` from stdin (bundleStdin); idempotent. */
export function bundleInstallCommand(digest: string): string {
    if (!HEX.test(digest)) throw new Error(`hosts: bundle digest must be 64 hex digits, got ${JSON.stringify(digest)}`);
    return bashProgram(
        `script bundle ${digest.slice(0, 16)}`,
        { bundle_root: BUNDLE_ROOT, bundle_id: digest.slice(0, 16), bundle_digest: digest },
        ["bundle-install"],
    );
}

/** The bundle as the install command reads it: `<file> <base64>` lines. */
export function bundleStdin(bundle: ScriptBundle): string {
    return Object.entries(bundle.files)
        .map(([f, text]) => `${f} ${Buffer.from(text).toString("base64")}\n`)
        .join("");
}

/** The command that removes the bundle of `digest` from a host. */
export function bundleRemoveCommand(digest: string): string {
    if (!HEX.test(digest)) throw new Error(`hosts: bundle digest must be 64 hex digits, got ${JSON.stringify(digest)}`);
    return bashProgram(`script bundle ${digest.slice(0, 16)}: remove`, { bundle_root: BUNDLE_ROOT, bundle_id: digest.slice(0, 16) }, [
        "bundle-remove",
    ]);
}
