// The test program (./fixture) with its "host" (a real sshd on 127.0.0.1) and a stack file a test
// rewrites to change the desired state, as an operator edits stacks/Pulumi.<env>.yaml. Secrets are
// real passphrase-provider secrets; state and manifests live in a temp dir.
import * as fs from "node:fs";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import YAML from "yaml";
import { PassphraseSecrets } from "../../lab/offline/passphraseSecrets";
import type { OfflineOptions } from "../../lab/offline/api";
import { startSshd, type TestSshd } from "../../lab/harness/sshd";

export const FIXTURE_DIR = path.join(__dirname, "fixture");
export const PASSPHRASE = "offline apply test passphrase";
/** The secret the program passes on stdin; it must reach the host and never be printed. */
export const STDIN_SECRET = "stdin-secret-7f3a9c1e2b";

export interface FixtureValues {
    note?: string;
    trigger?: string;
    deleteFirst?: boolean;
    failing?: boolean;
    extra?: boolean;
    extraIn?: "group";
    value?: string;
    invalidDaemonSet?: boolean;
    /** Registers "tunables", a dynamic resource that leaves its diff to the engine, with these nested inputs. */
    settings?: Record<string, unknown>;
    /** Its ignoreChanges and replaceOnChanges options. */
    ignore?: string[];
    replaceOn?: string[];
    /** Pin this instead of the server's real key. */
    hostKey?: string;
}

export interface Fixture {
    sshd: TestSshd;
    /** The "host" directory the commands write to. */
    hostDir: string;
    /** State, manifests and the stack file. */
    work: string;
    stackFile: string;
    write(values?: FixtureValues): void;
    options(extra?: Partial<OfflineOptions>): OfflineOptions;
    /** Lines the scripts appended to ops.log, in order. */
    opsLog(): string[];
    cleanup(): Promise<void>;
}

export async function startFixture(): Promise<Fixture> {
    const sshd = await startSshd();
    const work = mkdtempSync(path.join(tmpdir(), "offline-apply-"));
    const hostDir = path.join(work, "host");
    fs.mkdirSync(hostDir);
    const stackFile = path.join(work, "Pulumi.test.yaml");
    const secrets = PassphraseSecrets.create(PASSPHRASE);
    const p = (key: string) => `offline-fixture:${key}`;

    const write = (v: FixtureValues = {}) => {
        const config: Record<string, unknown> = {
            [p("dir")]: hostDir,
            [p("host")]: sshd.host,
            [p("port")]: sshd.port,
            [p("user")]: sshd.user,
            [p("privateKey")]: { secure: secrets.encrypt(sshd.privateKey) },
            [p("stdin")]: { secure: secrets.encrypt(STDIN_SECRET) },
            // Pins come from nodes[], as in the project's stacks.
            [p("nodes")]: [{ name: "host", address: sshd.host, port: sshd.port, hostKey: v.hostKey ?? sshd.hostKeyLine }],
        };
        if (v.note !== undefined) config[p("note")] = v.note;
        if (v.trigger !== undefined) config[p("trigger")] = v.trigger;
        if (v.deleteFirst !== undefined) config[p("deleteFirst")] = v.deleteFirst;
        if (v.failing !== undefined) config[p("failing")] = v.failing;
        if (v.extra !== undefined) config[p("extra")] = v.extra;
        if (v.extraIn !== undefined) config[p("extraIn")] = v.extraIn;
        if (v.value !== undefined) config[p("value")] = v.value;
        if (v.invalidDaemonSet !== undefined) config[p("invalidDaemonSet")] = v.invalidDaemonSet;
        for (const key of ["settings", "ignore", "replaceOn"] as const) if (v[key] !== undefined) config[p(key)] = v[key];
        fs.writeFileSync(stackFile, YAML.stringify({ encryptionsalt: secrets.encryptionSalt, config }));
    };
    write();

    return {
        sshd,
        hostDir,
        work,
        stackFile,
        write,
        options: (extra = {}) => ({ stack: "test", projectDir: FIXTURE_DIR, stackFile, localDir: work, passphrase: PASSPHRASE, ...extra }),
        opsLog: () => {
            const file = path.join(hostDir, "ops.log");
            return fs.existsSync(file) ? fs.readFileSync(file, "utf8").trim().split("\n") : [];
        },
        cleanup: async () => {
            await sshd.cleanup();
            fs.rmSync(work, { recursive: true, force: true });
        },
    };
}
