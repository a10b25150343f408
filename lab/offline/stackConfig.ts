// The configuration the engine hands a program: every key of the stack file's `config:` as
// `namespace:key` → text (structured values as JSON), `secure:` values decrypted, and the list of
// keys that hold secrets (PULUMI_CONFIG and PULUMI_CONFIG_SECRET_KEYS). Keys without a namespace
// belong to the project, as in Pulumi itself.
import * as fs from "node:fs";
import * as path from "node:path";
import YAML from "yaml";
import { Keyring } from "./secrets";

export interface Project {
    dir: string;
    name: string;
    /** Where stack files live, relative to `dir` (Pulumi.yaml `stackConfigDir`, default the project dir). */
    stackConfigDir: string;
}

export interface StackConfig {
    file: string;
    config: Record<string, string>;
    secretKeys: string[];
    /** Decrypted secret values, for redaction. */
    secretValues: string[];
    /** The project's own keys (namespace removed) as parsed, secrets still `{secure: …}`. */
    projectValues: Record<string, unknown>;
    /** The stack file's `encryptionsalt`, if it has one. */
    encryptionSalt?: string;
}

export function readProject(dir: string): Project {
    const file = path.join(dir, "Pulumi.yaml");
    if (!fs.existsSync(file)) throw new Error(`${file}: no Pulumi project here`);
    const doc = (YAML.parse(fs.readFileSync(file, "utf8")) ?? {}) as { name?: unknown; stackConfigDir?: unknown };
    if (typeof doc.name !== "string" || doc.name === "") throw new Error(`${file}: name is missing`);
    return { dir, name: doc.name, stackConfigDir: typeof doc.stackConfigDir === "string" ? doc.stackConfigDir : "." };
}

export const stackFilePath = (project: Project, stack: string) => path.join(project.dir, project.stackConfigDir, `Pulumi.${stack}.yaml`);

const isSecure = (v: unknown): v is { secure: string } =>
    typeof v === "object" &&
    v !== null &&
    !Array.isArray(v) &&
    Object.keys(v).length === 1 &&
    typeof (v as { secure?: unknown }).secure === "string";

/** Decrypts `{secure: …}` anywhere inside a value (Pulumi allows them nested in structured config). */
function decryptDeep(value: unknown, decrypt: (ciphertext: string) => string, found: string[]): unknown {
    if (isSecure(value)) {
        const plain = decrypt(value.secure);
        found.push(plain);
        return plain;
    }
    if (Array.isArray(value)) return value.map((v) => decryptDeep(v, decrypt, found));
    if (value && typeof value === "object") {
        return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, decryptDeep(v, decrypt, found)]));
    }
    return value;
}

export function readStackConfig(project: Project, file: string, keyring: Keyring): StackConfig {
    if (!fs.existsSync(file)) throw new Error(`${file}: no such stack file`);
    const doc = (YAML.parse(fs.readFileSync(file, "utf8")) ?? {}) as { config?: Record<string, unknown>; encryptionsalt?: unknown };
    const encryptionSalt = typeof doc.encryptionsalt === "string" ? doc.encryptionsalt : undefined;
    const decrypt = (ciphertext: string) => {
        if (!encryptionSalt) throw new Error("a secure value, but the file has no encryptionsalt (not a passphrase-provider stack)");
        return keyring.open(encryptionSalt).decrypt(ciphertext);
    };

    const result: StackConfig = { file, config: {}, secretKeys: [], secretValues: [], projectValues: {}, encryptionSalt };
    for (const [rawKey, value] of Object.entries(doc.config ?? {})) {
        const key = rawKey.includes(":") ? rawKey : `${project.name}:${rawKey}`;
        const found: string[] = [];
        let plain: unknown;
        try {
            plain = decryptDeep(value, decrypt, found);
        } catch (e) {
            throw new Error(`${file}: config ${key}: ${(e as Error).message}`);
        }
        result.config[key] = typeof plain === "string" ? plain : JSON.stringify(plain);
        if (found.length > 0) {
            result.secretKeys.push(key);
            result.secretValues.push(...found);
        }
        if (key.startsWith(`${project.name}:`)) result.projectValues[key.slice(project.name.length + 1)] = value;
    }
    return result;
}

/**
 * Host key pins from the stack's `nodes[]` (address, port or ssh.port or 22, hostKey) as
 * "host:port" → pin, and whether the stack waived host key checks (ssh.insecureIgnoreHostKey).
 */
export function hostKeyPins(values: Record<string, unknown>): { pins: Record<string, string>; insecure: boolean } {
    const ssh = (values.ssh ?? {}) as { port?: unknown; insecureIgnoreHostKey?: unknown };
    const defaultPort = typeof ssh.port === "number" ? ssh.port : 22;
    const pins: Record<string, string> = {};
    for (const node of Array.isArray(values.nodes) ? values.nodes : []) {
        const n = (node ?? {}) as { address?: unknown; port?: unknown; hostKey?: unknown };
        if (typeof n.address !== "string" || typeof n.hostKey !== "string") continue;
        pins[`${n.address}:${typeof n.port === "number" ? n.port : defaultPort}`] = n.hostKey;
    }
    return { pins, insecure: ssh.insecureIgnoreHostKey === true };
}
