// The offline apply's state file, .local/state/<stack>.json: what a Pulumi checkpoint keeps, in
// the same spirit. `resources` is in registration order (a resource always after what it depends
// on), so deleting in reverse order is safe. In memory a secret is the engine's wrapper
// {sig, value}; on disk it is {sig, ciphertext} sealed with the passphrase provider, as in a
// Pulumi checkpoint, and the file is readable by its owner only.
import * as fs from "node:fs";
import * as path from "node:path";
import { SECRET_SIG, SIG_KEY } from "./sdk";
import type { Keyring } from "./secrets";
import type { Props } from "./values";

export interface StateResource {
    urn: string;
    type: string;
    name: string;
    parent: string;
    custom: boolean;
    /** Provider-assigned ID (custom resources). */
    id?: string;
    /** Explicit provider reference `urn::id`, if the program gave one. */
    provider?: string;
    inputs: Props;
    outputs: Props;
    dependencies: string[];
    /** Replaced (create-before-delete) or left over by a failed run: deleted by the next `up`. */
    pendingDelete?: boolean;
}

export interface StackState {
    version: 1;
    project: string;
    stack: string;
    updated: string;
    /** `encryptionsalt` of the key that sealed the secrets in this file. */
    encryptionSalt?: string;
    /** The program's stack outputs. */
    outputs: Props;
    resources: StateResource[];
}

export const emptyState = (project: string, stack: string): StackState => ({
    version: 1,
    project,
    stack,
    updated: new Date(0).toISOString(),
    outputs: {},
    resources: [],
});

type Transform = (v: unknown) => unknown;

function walk(value: unknown, secretFn: (v: Record<string, unknown>) => unknown): unknown {
    if (value && typeof value === "object" && (value as Record<string, unknown>)[SIG_KEY] === SECRET_SIG) {
        return secretFn(value as Record<string, unknown>);
    }
    if (Array.isArray(value)) return value.map((v) => walk(v, secretFn));
    if (value && typeof value === "object") return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, walk(v, secretFn)]));
    return value;
}

function mapResources(state: StackState, f: Transform): StackState {
    return {
        ...state,
        outputs: f(state.outputs) as Props,
        resources: state.resources.map((r) => ({ ...r, inputs: f(r.inputs) as Props, outputs: f(r.outputs) as Props })),
    };
}

const hasSecret = (state: StackState) => {
    let found = false;
    mapResources(state, (v) => walk(v, (s) => ((found = true), s)));
    return found;
};

export function loadState(file: string, keyring: Keyring, project: string, stack: string): StackState {
    if (!fs.existsSync(file)) return emptyState(project, stack);
    const disk = JSON.parse(fs.readFileSync(file, "utf8")) as StackState;
    if (disk.version !== 1) throw new Error(`${file}: unsupported state version ${String(disk.version)}`);
    return mapResources(disk, (v) =>
        walk(v, (s) => {
            if (!("ciphertext" in s)) return s; // an unsealed wrapper: keep as is
            if (!disk.encryptionSalt) throw new Error(`${file}: has sealed secrets but no encryptionSalt`);
            return { [SIG_KEY]: SECRET_SIG, value: JSON.parse(keyring.open(disk.encryptionSalt).decrypt(String(s.ciphertext))) };
        }),
    );
}

/** Writes atomically (a crash leaves the old file or the new one), mode 0600. */
export function saveState(file: string, state: StackState, keyring: Keyring, preferredSalt?: string): StackState {
    let salt = state.encryptionSalt;
    if (!salt && hasSecret(state)) salt = preferredSalt ?? keyring.create().encryptionSalt;
    const saved: StackState = { ...state, encryptionSalt: salt, updated: new Date().toISOString() };
    const sealed = mapResources(saved, (v) =>
        walk(v, (s) => ({ [SIG_KEY]: SECRET_SIG, ciphertext: keyring.open(salt as string).encrypt(JSON.stringify(s.value)) })),
    );
    fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
    const tmp = `${file}.${process.pid}.tmp`;
    fs.writeFileSync(tmp, JSON.stringify(sealed, null, 2) + "\n", { mode: 0o600 });
    fs.renameSync(tmp, file);
    return saved;
}
