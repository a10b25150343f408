// The passphrase secrets provider for the offline apply: decrypts the stack file's `secure:`
// values and encrypts secrets in the state file, with the key Pulumi's passphrase provider derives
// (./passphraseSecrets.ts). The passphrase is looked up as the Pulumi CLI does, and
// only when a secret actually has to be opened or sealed.
import * as fs from "node:fs";
import * as path from "node:path";
import { PassphraseSecrets } from "./passphraseSecrets";
import { LOCAL_LAB_PASSPHRASE } from "../localcluster/stackFile";

/** Explicit, then PULUMI_CONFIG_PASSPHRASE, then PULUMI_CONFIG_PASSPHRASE_FILE; local lab stacks fall back to their generated default. */
export function findPassphrase(stack: string, explicit?: string, env: NodeJS.ProcessEnv = process.env): string | undefined {
    if (explicit !== undefined) return explicit;
    if (env.PULUMI_CONFIG_PASSPHRASE !== undefined) return env.PULUMI_CONFIG_PASSPHRASE;
    if (env.PULUMI_CONFIG_PASSPHRASE_FILE) return fs.readFileSync(path.resolve(env.PULUMI_CONFIG_PASSPHRASE_FILE), "utf8").trim();
    return stack === "local" || stack.startsWith("local-") ? LOCAL_LAB_PASSPHRASE : undefined;
}

/** Opens salts on demand; deriving a key costs about half a second, so each salt is opened once. */
export class Keyring {
    private readonly opened = new Map<string, PassphraseSecrets>();

    constructor(
        private readonly passphrase: string | undefined,
        private readonly stack: string,
    ) {}

    private need(): string {
        if (this.passphrase === undefined) {
            throw new Error(
                `stack ${this.stack} has secrets: set PULUMI_CONFIG_PASSPHRASE (or PULUMI_CONFIG_PASSPHRASE_FILE) to its passphrase`,
            );
        }
        return this.passphrase;
    }

    open(encryptionSalt: string): PassphraseSecrets {
        let box = this.opened.get(encryptionSalt);
        if (!box) {
            box = PassphraseSecrets.open(this.need(), encryptionSalt);
            this.opened.set(encryptionSalt, box);
        }
        return box;
    }

    create(): PassphraseSecrets {
        const box = PassphraseSecrets.create(this.need());
        this.opened.set(box.encryptionSalt, box);
        return box;
    }
}
