// Everything one offline operation works with: the project and its stack config (secrets
// decrypted), the state, the handlers, and a redactor primed with every secret known so far.
import * as path from "node:path";
import { PROJECT_ROOT } from "../projectRoot";
import { Handlers } from "./handlers";
import { Profile } from "./profile";
import { Redactor } from "./redact";
import { findPassphrase, Keyring } from "./secrets";
import { loadState, saveState, type StackState } from "./state";
import { hostKeyPins, readProject, readStackConfig, stackFilePath, type Project, type StackConfig } from "./stackConfig";
import type { ResourceOp } from "./results";
import { plainStrings, secretStrings } from "./values";

const parseMaybeJson = (text: string): unknown => {
    try {
        return JSON.parse(text);
    } catch {
        return text;
    }
};

export interface OfflineOptions {
    stack: string;
    /** Directory with Pulumi.yaml (default: this project's root). */
    projectDir?: string;
    /** Default: <projectDir>/<stackConfigDir>/Pulumi.<stack>.yaml. */
    stackFile?: string;
    /** Where state and records go (default <projectDir>/.local): state/<stack>.json, <stack>/manifests/. */
    localDir?: string;
    /** Default: PULUMI_CONFIG_PASSPHRASE, PULUMI_CONFIG_PASSPHRASE_FILE, the lab default for local stacks. */
    passphrase?: string;
    /** Host key pins, "host:port" → key line or SHA256 fingerprint, added to (and overriding) the stack's nodes[].hostKey. */
    hostKeys?: Record<string, string>;
    /** Report steps without carrying them out. */
    dryRun?: boolean;
    /** up/preview: refresh first, as `pulumi up --refresh` (its drift is in the result). */
    refresh?: boolean;
    /** up: as `pulumi up --continue-on-error`, a failed step stops only the steps that depend on it (the up still fails). */
    continueOnError?: boolean;
    /** Called as each step finishes (progress output). */
    onOp?: (op: ResourceOp) => void;
}

export interface Operation {
    project: Project;
    stack: string;
    stackConfig: StackConfig;
    statePath: string;
    manifestsDir: string;
    state: StackState;
    handlers: Handlers;
    /** Where this operation's time goes (bench:cluster prints it). */
    profile: Profile;
    redactor: Redactor;
    /** Writes the state (sealing secrets); keeps the key's salt for later writes. */
    save(state: StackState): void;
}

export { PROJECT_ROOT };

export function openOperation(opts: OfflineOptions): Operation {
    const project = readProject(path.resolve(opts.projectDir ?? PROJECT_ROOT));
    const keyring = new Keyring(findPassphrase(opts.stack, opts.passphrase), opts.stack);
    const stackConfig = readStackConfig(project, path.resolve(opts.stackFile ?? stackFilePath(project, opts.stack)), keyring);
    const localDir = path.resolve(opts.localDir ?? path.join(project.dir, ".local"));
    const statePath = path.join(localDir, "state", `${opts.stack}.json`);
    const manifestsDir = path.join(localDir, opts.stack, "manifests");
    const state = loadState(statePath, keyring, project.name, opts.stack);

    const redactor = new Redactor();
    redactor.add(stackConfig.secretValues);
    for (const [key, text] of Object.entries(stackConfig.config)) {
        if (!stackConfig.secretKeys.includes(key)) redactor.addPublic([text, ...plainStrings(parseMaybeJson(text))]);
    }
    for (const r of state.resources) redactor.add([...secretStrings(r.inputs), ...secretStrings(r.outputs)]);

    const pins = hostKeyPins(stackConfig.projectValues);
    const profile = new Profile();
    const handlers = new Handlers(
        {
            profile,
            project: project.name,
            stack: opts.stack,
            projectDir: project.dir,
            manifestsDir,
            config: stackConfig.config,
            hostKeys: { pins: { ...pins.pins, ...opts.hostKeys }, insecure: pins.insecure },
        },
        state.resources,
    );
    let salt = state.encryptionSalt;
    return {
        project,
        stack: opts.stack,
        stackConfig,
        statePath,
        manifestsDir,
        state,
        handlers,
        profile,
        redactor,
        save(next) {
            // One key for the stack file and the state when the stack file has one.
            const saved = profile.timed("state writes", () =>
                saveState(statePath, { ...next, encryptionSalt: next.encryptionSalt ?? salt }, keyring, stackConfig.encryptionSalt),
            );
            salt = saved.encryptionSalt;
        },
    };
}
